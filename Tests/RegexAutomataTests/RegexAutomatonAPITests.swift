import AutomatonCore
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct RegexAutomatonAPITests {
    @Test func globalLoopExamplesFromTheIssue() throws {
        #expect(try RegexCompiler().compile("a*").matches(in: "ab").map(\.range) == [0..<1, 1..<1, 2..<2])
        #expect(try RegexCompiler().compile("|a").matches(in: "a").map(\.range) == [0..<0, 0..<1, 1..<1])
    }

    @Test func haystackTypesAgree() throws {
        let regex = try RegexCompiler().compile("b+")
        let bytes = Array("abba bb".utf8)
        let expected = [Match(pattern: 0, start: 1, end: 3), Match(pattern: 0, start: 5, end: 7)]
        #expect(regex.matches(in: "abba bb") == expected)
        #expect(regex.matches(in: bytes) == expected)
        #expect(bytes.withUnsafeBufferPointer { regex.matches(in: $0) } == expected)
        #expect(regex.firstMatch(in: "abba bb") == expected[0])
        #expect(regex.isMatch(in: bytes))
        #expect(!regex.isMatch(in: "aaa"))
    }

    @Test func utf8ModeStepsScalarsAndSurvivesInvalidUTF8() throws {
        let dot = try RegexCompiler().compile(".")
        #expect(dot.matches(in: "é😀").map(\.range) == [0..<2, 2..<6])
        // Invalid bytes are never part of `.`; truncated sequences do not crash.
        let invalid: [UInt8] = [0xFF, 0x61, 0xC3, 0xE2, 0x82, 0x62, 0x80, 0xF0, 0x9F]
        #expect(dot.matches(in: invalid).map(\.range) == [1..<2, 5..<6])
        let empty = try RegexCompiler().compile("")
        // The global loop steps over continuation bytes after an empty match.
        #expect(empty.matches(in: "é").map(\.range) == [0..<0, 2..<2])
        #expect(empty.matches(in: invalid).count == 7)
        let bytesDot = try RegexCompiler().bytes(true).compile(".")
        #expect(bytesDot.matches(in: invalid).count == invalid.count)
    }

    @Test func engineKindIsObservable() throws {
        #expect(try RegexCompiler().compile("abc").engineKind == .dense)
        #expect(try RegexCompiler().forceLazy(true).compile("abc").engineKind == .lazy)
        let big = try RegexCompiler().compile("(a|b)*a(a|b){20}")
        #expect(big.engineKind == .lazy)
        #expect(big.isMatch(in: "b" + String(repeating: "ab", count: 20)))
    }

    @Test func nfaSizeLimitIsATypedError() {
        do {
            _ = try RegexCompiler().limits(Limits(maxStates: 5_000)).compile("(?:a{1000}){1000}")
            Issue.record("expected a limit error")
        } catch {
            guard case .limit(let inner) = error.kind else { Issue.record("wrong kind \(error)"); return }
            #expect(inner.kind == .tooManyStates(limit: 5_000))
            #expect(error.description.contains("Limits.maxStates"))
        }
    }

    @Test func syntaxErrorsAreWrapped() {
        do {
            _ = try RegexCompiler().compile("a(?=b)")
            Issue.record("expected a syntax error")
        } catch {
            guard case .syntax(let inner, 0) = error.kind else { Issue.record("wrong kind \(error)"); return }
            #expect(inner.offset == 1)
        }
    }

    @Test func forwardDFAExportsAndRoundTrips() throws {
        let regex = try RegexCompiler().compile("\\bfoo(?:bar)?\\b")
        let forward = try #require(regex.forwardDFA)
        #expect(forward.matchTiming == .delayedByOne)
        #expect(forward.dot(name: "foo").contains("digraph"))
        let loaded = try DenseDFA(deserializing: forward.serialized())
        let haystack = Array("foo foobar foobaz".utf8)
        #expect(loaded.matchEnds(in: haystack) == forward.matchEnds(in: haystack))
        // A leftmost-first DFA stops after the first match; a second search from 4
        // finds the next end (searchForward feeds the byte after the range, so `\b`
        // sees the real context).
        let ends = haystack.withUnsafeBufferPointer { buffer in
            [0, 4].map { loaded.searchForward(buffer, in: $0..<buffer.count)?.end }
        }
        #expect(ends == [3, 10])
    }

    @Test func sharedAcrossTasks() async throws {
        let regex = try RegexCompiler().forceLazy(true).compile("[a-z]+ing\\b")
        let text = Array(String(repeating: "singing and ringing thing ", count: 200).utf8)
        let expected: [Match] = regex.matches(in: text)
        let results = await withTaskGroup(of: [Match].self) { group in
            for _ in 0..<8 { group.addTask { regex.matches(in: text) } }
            var all: [[Match]] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
        #expect(expected.count == 600)
    }
}
