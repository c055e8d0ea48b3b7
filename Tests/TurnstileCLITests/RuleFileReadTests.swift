import Foundation
import Testing
import TestSupport
@testable import TurnstileCLI
import Turnstile

/// A rule or pattern file is read once (issue 28, point 1): its rules, its header and
/// the `file:line` of an error all come from the one read, so a file that can be read
/// only once (a FIFO, `/dev/stdin`) means the same as a regular one, and no work is
/// done twice. The options read through a function the test counts calls of.
@Suite("rule files are read once")
struct RuleFileReadTests {
    /// Builds what `body` makes of the options parsed from `arguments`, counting the
    /// reads of each path; returns the result (or the error's message) and the counts.
    private func build<T>(
        _ arguments: [String], _ body: (RuleSet) throws -> T
    ) throws -> (result: Result<T, CommandFailure>, reads: [String: Int]) {
        let options = try RuleArguments.parse(arguments).options
        var reads: [String: Int] = [:]
        let result = Result { () throws(CommandFailure) -> T in
            try options.withRuleSet(fallback: .standard, reading: { path in
                reads[path, default: 0] += 1
                return try readPatternFile(path, limit: defaultMaxPatternFileBytes)
            }, body)
        }
        return (result, reads)
    }

    @Test("--rules with a header: rules, threshold and flags from one read")
    func rulesFileWithHeader() throws {
        let dir = try CLI.temporaryDirectory()
        let rules = try CLI.write("# threshold: 2.5\n# flags: -F -i\nfree entry\t2\nprize\t1\n".bytes, to: "r.tsv", in: dir)
        let (result, reads) = try build(["--rules", rules]) { $0 }
        let set = try result.get()
        #expect(reads == [rules: 1])
        #expect(set.rules.map(\.weight) == [2, 1])
        #expect(set.threshold == 2.5)
        #expect(set.options.syntax == .literal && set.options.caseInsensitive)
    }

    @Test("-f, --rules and --add-rules files: each read once")
    func everyKind() throws {
        let dir = try CLI.temporaryDirectory()
        let words = try CLI.write("cash\nwinner\n".bytes, to: "words.txt", in: dir)
        let rules = try CLI.write("prize\t3\n".bytes, to: "r.tsv", in: dir)
        let more = try CLI.write("urgent\t1\n".bytes, to: "more.tsv", in: dir)
        let (result, reads) = try build(["-f", words, "--rules", rules, "--add-rules", more]) { try $0.spamFilter() }
        #expect(reads == [words: 1, rules: 1, more: 1])
        #expect(try result.get().rules.map(\.weight) == [1, 1, 3, 1])
        let (added, addedReads) = try build(["--add-rules", more]) { $0 }
        #expect(addedReads == [more: 1], "--add-rules over the built-in list")
        #expect(try added.get().rules.count == RuleSet.standard.rules.count + 1)
    }

    @Test("a regex error names file:line without reading the file again")
    func errorPlace() throws {
        let dir = try CLI.temporaryDirectory()
        let rules = try CLI.write("# a comment\n\nfree\t1\nspam(mer\t2\n".bytes, to: "bad.tsv", in: dir)
        let words = try CLI.write("ok\n(\n".bytes, to: "bad.txt", in: dir)
        for (arguments, place, path) in [(["--rules", rules], "\(rules):4", rules), (["-e", "x", "-f", words], "\(words):2", words)] {
            let (result, reads) = try build(arguments) { try $0.spamFilter() }
            #expect(reads == [path: 1], "\(arguments)")
            guard case .failure(let failure) = result else { Issue.record("\(arguments) built"); continue }
            #expect(failure.message.hasPrefix("\(place): not a valid regex"), "\(failure.message)")
        }
    }
}
