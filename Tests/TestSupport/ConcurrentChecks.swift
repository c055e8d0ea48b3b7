/// Shared shape of the "one automaton, many tasks" tests: run a check many times in
/// several tasks at once and count the failures, with sizes scaled down under the
/// sanitizers (`make test-asan` / `make test-tsan` set `TURNSTILE_SANITIZER`; sanitized
/// builds run 5-20× slower).
public enum ConcurrentChecks {
    /// `true` under `make test-asan` / `make test-tsan`.
    public static let sanitized = Environment.value("TURNSTILE_SANITIZER") != nil

    /// `full` normally, `reduced` in sanitized runs.
    public static func scale(_ full: Int, sanitized reduced: Int) -> Int { sanitized ? reduced : full }

    /// Runs `check(task, round)` for `rounds` rounds in each of `tasks` concurrent tasks;
    /// returns how many calls returned `false`.
    public static func failures(
        tasks: Int = 8, rounds: Int, _ check: @escaping @Sendable (_ task: Int, _ round: Int) -> Bool
    ) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var bad = 0
                    for round in 0..<rounds where !check(task, round) { bad += 1 }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
    }
}
