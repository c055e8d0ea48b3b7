import Foundation
import Testing
import TestSupport

/// The built-in mail list on present-day mail (issues 37 and 43): it was trained mostly
/// on 2002-era messages, so it must not flag today's receipts, password resets,
/// invitations, newsletters, CI notices, mailing-list patches, mail in other languages
/// and family mail, and its built-in present-day rules must catch today's obvious spam.
/// `Corpora/present-day/` holds messages written for this (45 hand-written ham and 17
/// spam; 191 generated ham and 116 generated spam, Scripts/generate-present-day-mail.py);
/// README.md, "The built-in mail list", gives the figures.
@Suite("the built-in mail list on present-day mail")
struct PresentDayMailTests {
    static let ham = "Corpora/present-day/ham.mbox"
    static let spam = "Corpora/present-day/spam.mbox"
    static let generatedHam = "Corpora/present-day/ham-generated.mbox"
    static let generatedSpam = "Corpora/present-day/spam-generated.mbox"

    struct Judged: Decodable { var record: Int; var spam: Bool; var score: Double; var threshold: Double }

    static func judge(_ args: [String], stdin: [UInt8] = []) throws -> [Judged] {
        let r = try CLI.run(["filter", "--json"] + args, stdin: stdin)
        #expect(r.status == 0 || r.status == 1, "\(r.err)")
        return try r.out.split(separator: "\n").map { try JSONDecoder().decode(Judged.self, from: Data($0.utf8)) }
    }

    @Test("no present-day ham is flagged, and every score keeps a margin below the threshold",
          arguments: [(ham, 45), (generatedHam, 191)])
    func presentDayHam(_ corpus: (path: String, count: Int)) throws {
        let judged = try Self.judge(["--format", "mbox", corpus.path])
        #expect(judged.count == corpus.count)
        for j in judged {
            #expect(!j.spam, "message \(j.record) of \(corpus.path) judged spam (score \(j.score))")
            // The margin measured when the list was chosen (the highest ham score 0.78 of
            // 0.9): a list that eats into it is less safe on ham nobody here has seen.
            #expect(j.score <= j.threshold - 0.1, "message \(j.record): score \(j.score) of \(j.threshold)")
        }
    }

    @Test("the built-in list catches the obvious present-day spam")
    func obviousSpam() throws {
        let winner = "Subject: WINNER free cash prize claim now\n\nurgent winner claim your free cash prize now, guaranteed\n"
        #expect(try Self.judge(["--format", "eml", "-"], stdin: Array(winner.utf8)).first?.spam == true)
        // Most of the hand-written and all but a few of the generated present-day spam.
        let hand = try Self.judge(["--format", "mbox", Self.spam])
        #expect(hand.count == 17 && hand.filter(\.spam).count >= 12, "\(hand.filter(\.spam).count) of 17")
        let generated = try Self.judge(["--format", "mbox", Self.generatedSpam])
        #expect(generated.filter(\.spam).count * 10 >= generated.count * 9, "\(generated.filter(\.spam).count) of \(generated.count)")
    }

    @Test("present-day spam: each message caught scores above every present-day ham")
    func presentDaySpam() throws {
        let judged = try Self.judge(["--format", "mbox", Self.spam])
        #expect(judged.count == 17)
        let hamMax = try Self.judge(["--format", "mbox", Self.ham]).map(\.score).max() ?? 0
        // Each caught spam scores above every ham: the threshold separates them.
        for j in judged where j.spam { #expect(j.score > hamMax) }
    }

    /// The messages issue 37 found flagged by the old list, one by one (the same texts
    /// are in the corpus with full headers; these are the bare forms a user types).
    @Test("the issue's examples are clean", arguments: [
        ("noreply@github.com", "[GitHub] Please reset your password",
         "We heard that you lost your GitHub password. Use the link below to reset your password.\nhttps://github.com/password_reset/abc\nIf you don't use this link within 3 hours, it will expire."),
        ("statements@bank.example", "Your statement is ready",
         "Your monthly statement for your account ending in 4417 is now available in online banking. Sign in to view it."),
        ("alerts@bank.example", "Your account has been updated",
         "We updated the mailing address on your account. If you made this change, no action is needed."),
        ("no_reply@email.apple.com", "Your receipt from Apple",
         "Receipt. iCloud+ with 200 GB (Monthly) $2.99. Billed to Visa. Get help with subscriptions and purchases."),
        ("bookings@airline.example", "Your flight booking confirmation",
         "Thank you for booking. Booking reference LQ7P2M. Passenger: Sam Carter. Total paid: GBP 214.60. Manage your booking online."),
        ("priya@service.example", "Re: your question",
         "Yes, the export keeps the original time zones. Tick normalise timestamps if you need UTC."),
        ("x@service.example", "Meeting tomorrow",
         "Just confirming we're meeting tomorrow at 10:00. Could you bring the budget sheet?"),
        ("x@service.example", "Invitation: team sync",
         "You have been invited to the following event. Title: team sync. When: Weekly on Tuesday 10:00. Join with Google Meet. Going? Yes - Maybe - No"),
        ("alerts@mybank.example", "Your statement is ready to view",
         "Dear customer, your credit card statement is ready. Your payment of $87.16 is due on December 14. Thank you for banking with us."),
    ])
    func issueExamples(_ example: (from: String, subject: String, body: String)) throws {
        let message = "From: \(example.from)\nTo: sam@example.org\nSubject: \(example.subject)\n"
            + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n\(example.body)\n"
        let judged = try Self.judge(["--format", "eml", "-"], stdin: Array(message.utf8))
        #expect(judged.count == 1 && judged.allSatisfy { !$0.spam }, "\(example.subject): \(judged)")
    }

    @Test("no single token makes a message spam: the heaviest rule alone, and each built-in rule alone, stays clean")
    func noSingleTokenDecides() throws {
        let list = try String(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("spam/default-mail-words.txt"),
                              encoding: .utf8)
        let lines = list.split(separator: "\n")
        #expect(lines.contains("# model: chi-square"))
        let rules = lines.filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        // Era artefacts are not learnt: no header-field token, no charset word, no number.
        for rule in rules {
            let token = String(rule[0])
            #expect(!token.hasPrefix("header:"), "\(token)")
            #expect(!["utf", "iso", "8859", "1252", "charset", "aug", "2002"].contains(token), "\(token)")
        }
        // The heaviest body word and the heaviest built-in phrase, each alone in a message.
        let bodyRules = rules.filter { !$0[0].contains(":") }
        let heaviest = try #require(bodyRules.max { Double(String($0[1]))! < Double(String($1[1]))! }.map { String($0[0]) })
        let phrase = try #require(bodyRules.last { Double(String($0[1]))! >= 2 && $0[0].contains(" ") }.map { String($0[0]) })
        for word in [heaviest, phrase] {
            let judged = try Self.judge(["--format", "eml", "-"], stdin: Array("Subject: hello\n\n\(word)\n".utf8))
            #expect(judged.first.map { !$0.spam } == true, "\(word): \(judged)")
        }
    }
}
