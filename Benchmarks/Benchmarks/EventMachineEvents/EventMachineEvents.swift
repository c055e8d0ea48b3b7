// The typed event machine per event (issue 36): the gate driven by alternating
// coin/push events, beside a hand-written switch and a class-per-state machine
// (EventWorkloads). Instructions and mallocs are deterministic: the targets are no
// allocation per event, and fire within a small multiple of the switch. Wall times for
// the README come from `event-table`, which prints ns per event.
import Benchmark
import EventMachine
import EventWorkloads

/// Made once, on the main actor, outside the measured loop.
@MainActor let mainActorGate = plainMainActorGate()

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .instructions, .mallocCountTotal, .throughput]
    let perThousand = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo)
    Benchmark("Gate: hand-written switch (1,000 events)", configuration: perThousand) { benchmark in
        var gate = SwitchGate()
        for i in benchmark.scaledIterations { gate.fire(gateEvents[i & 1]) }
        blackHole(gate.passengers)
    }
    Benchmark("Gate: class per state (1,000 events)", configuration: perThousand) { benchmark in
        let gate = ClassPerStateGate()
        for i in benchmark.scaledIterations { gate.fire(gateEvents[i & 1]) }
        blackHole(gate.current)
    }
    let plain = plainGate()
    Benchmark("Gate: StateMachine.fire, no hooks (1,000 events)", configuration: perThousand) { benchmark in
        for i in benchmark.scaledIterations { blackHole(try! plain.fire(gateEvents[i & 1])) }
    }
    let counter = HookCounter()
    let hooked = hookedGate(counter)
    Benchmark("Gate: fire with 2 hooks + an observer (1,000 events)", configuration: perThousand) { benchmark in
        for i in benchmark.scaledIterations { blackHole(try! hooked.fire(gateEvents[i & 1])) }
    }
    let refusing = refusingGate()
    Benchmark("Gate: a refused event, thrown (1,000 events)", configuration: perThousand) { benchmark in
        for _ in benchmark.scaledIterations {
            // `throws(...)`: an untyped catch boxes the typed error into `any Error` (a malloc).
            do throws(StateMachine<Gate, GateEvent>.TransitionError) { try refusing.fire(.push) } catch { blackHole(error) }
        }
    }
    let sender = plainGate()
    Benchmark("Gate: await send on an idle machine (1,000 events)", configuration: perThousand) { benchmark in
        for i in benchmark.scaledIterations { blackHole(try! await sender.send(gateEvents[i & 1])) }
    }
    Benchmark("Gate: MainActorStateMachine.fire, no hooks (1,000 events)", configuration: perThousand) { benchmark in
        let iterations = benchmark.scaledIterations
        await MainActor.run {
            for i in iterations { blackHole(try! mainActorGate.fire(gateEvents[i & 1])) }
        }
    }
}
