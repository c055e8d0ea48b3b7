import Foundation
import Testing
import TestSupport

/// The built-in mail list on present-day mail (issue 37): it was trained on 2002-era
/// messages, so it must not flag today's receipts, password resets, invitations,
/// newsletters, CI notices and family mail. `Corpora/present-day/` holds messages
/// written for this (45 ham, 17 phishing and scam spam); README.md, "The built-in mail
/// list", gives the figures.
@Suite("the built-in mail list on present-day mail")
struct PresentDayMailTests {
    static let ham = "Corpora/present-day/ham.mbox"
    static let spam = "Corpora/present-day/spam.mbox"

    struct Judged: Decodable { var record: Int; var spam: Bool; var score: Double; var threshold: Double }

    static func judge(_ args: [String], stdin: [UInt8] = []) throws -> [Judged] {
        let r = try CLI.run(["filter", "--json"] + args, stdin: stdin)
        #expect(r.status == 0 || r.status == 1, "\(r.err)")
        return try r.out.split(separator: "\n").map { try JSONDecoder().decode(Judged.self, from: Data($0.utf8)) }
    }

    @Test("no present-day ham is flagged, and every score keeps a third of the threshold in hand")
    func presentDayHam() throws {
        let judged = try Self.judge(["--format", "mbox", Self.ham])
        #expect(judged.count == 45)
        for j in judged {
            #expect(!j.spam, "message \(j.record) of \(Self.ham) judged spam (score \(j.score))")
            // The margin measured when the list was chosen (the highest ham score 6 of 9.5):
            // a list that eats into it is less safe on ham nobody here has seen.
            #expect(j.score <= j.threshold * 2 / 3, "message \(j.record): score \(j.score) of \(j.threshold)")
        }
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

    @Test("no single token makes a message spam: every weight is at most a tenth of the threshold")
    func noSingleTokenDecides() throws {
        let list = try String(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("spam/default-mail-words.txt"),
                              encoding: .utf8)
        let lines = list.split(separator: "\n")
        let threshold = try #require(Double(String(lines[0].dropFirst("# threshold: ".count))))
        let rules = lines.filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        let heaviest = rules.compactMap { Double(String($0[1])) }.max() ?? 0
        #expect(heaviest * 9 < threshold, "heaviest \(heaviest), threshold \(threshold): ten rules must fire")
        // Era artefacts are not learnt: no header-field token, no charset word.
        for rule in rules {
            let token = String(rule[0])
            #expect(!token.hasPrefix("header:"), "\(token)")
            #expect(!["utf", "iso", "8859", "1252", "charset"].contains(token), "\(token)")
        }
        // The highest-scoring single word alone: far below the threshold.
        let spamWord = try #require(rules.first { Double(String($0[1]))! > 0 && !$0[0].contains(":") }.map { String($0[0]) })
        let judged = try Self.judge(["--format", "eml", "-"], stdin: Array("Subject: \(spamWord)\n\n\(spamWord)\n".utf8))
        #expect(judged.first.map { !$0.spam && $0.score < $0.threshold / 2 } == true, "\(spamWord): \(judged)")
    }
}
