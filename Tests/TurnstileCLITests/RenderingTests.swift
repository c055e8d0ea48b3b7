@testable import TurnstileCLI
import Testing
import TestSupport

/// The byte-level number writer `--json` uses must spell every number as `String(n)`
/// does: a JSON reader sees the same output as before the writer existed.
@Suite struct RenderingTests {
    @Test func decimalsAreSpelledAsStringDoes() {
        var samples: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, 1 << 32,
                              Int.max, Int.max - 1, Int.min, Int.min + 1, -1, -10, -99, -100]
        var power = 1
        for _ in 0..<18 { power *= 10; samples += [power - 1, power, power + 1, -power] }
        let seed: UInt64 = 0x0DEC_1A1
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<2000 { samples.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<63)) }
        for n in samples {
            var out: [UInt8] = [0x7B]
            Rendering.appendDecimal(n, to: &out)
            #expect(out == [0x7B] + Array(String(n).utf8), "\(n) (seed \(seed))")
        }
    }

    @Test func literalsAreAppendedWhole() {
        var out: [UInt8] = Array("x".utf8)
        Rendering.append("{\"start\":", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x{\"start\":")
    }
}
