import Foundation
import TurnstileFoundation
import Testing
import Turnstile
import AutomatonCore
import RegexAutomata

/// Every public error type prints its own sentence through `localizedDescription`
/// (Foundation's fallback would be "The operation could not be completed. (…)").
@Suite("Errors: localizedDescription is the error's sentence")
struct LocalizedErrorTests {
    /// The error's `localizedDescription` as a plain `any Error` (how a `catch` sees it).
    static func localized(_ error: any Error) -> String { error.localizedDescription }

    @Test func everyErrorSaysItsSentence() throws {
        var errors: [(any Error, String)] = []
        do { _ = try AhoCorasick(["abcdef"], limits: Limits(maxStates: 2)) } catch { errors.append((error, error.description)) }
        do { _ = try RegexAutomaton("a(") } catch {
            errors.append((error, error.description))
            if case .syntax(let syntax, _) = error.kind { errors.append((syntax, syntax.description)) }
        }
        do { _ = try Matcher(patterns: ["a("], options: .init()) } catch { errors.append((error, error.description)) }
        #expect(errors.count == 4)
        for (error, sentence) in errors {
            #expect(!sentence.isEmpty)
            #expect(Self.localized(error) == sentence)
            #expect(!Self.localized(error).contains("The operation could not be completed"))
        }
    }
}
