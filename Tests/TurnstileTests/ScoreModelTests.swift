import Testing
import AutomatonCore
@testable import Turnstile

/// Issue 43: Robinson's chi-square combining (ScoreModel) — many weak tokens and a few
/// strong ones both count, a single token never decides — and the facts (MailFacts)
/// it weighs besides words.
@Suite("chi-square combining and message facts")
struct ScoreModelTests {
    static let strongest = ScoreModel.weight(probability: ScoreModel.maximumProbability)

    @Test("no evidence is 'don't know'; the sum model is the plain sum")
    func empty() {
        #expect(ScoreModel.chiSquare.score(weights: [Double]()) == 0.5)
        #expect(ScoreModel.sum.score(weights: [1, 2.5]) == 3.5)
        // Tokens too close to f = 0.5 are no clue at all.
        #expect(ScoreModel.chiSquare.score(weights: [0.1, -0.2]) == 0.5)
    }

    @Test("a single token never decides, however strong, below the threshold and above the ham cutoff")
    func singleTokenNeverDecides() {
        for w in [Self.strongest, 50, 1e9] {
            let s = ScoreModel.chiSquare.score(weights: [w])
            #expect(s < ScoreModel.spamCutoff && s > 0.5, "\(w): \(s)")
            let h = ScoreModel.chiSquare.score(weights: [-w])
            #expect(h > ScoreModel.hamCutoff - 0.2 && h < 0.5, "\(-w): \(h)")
        }
        // Nor does one strong spam token among a message's ham evidence.
        let mixed = ScoreModel.chiSquare.score(weights: [Self.strongest] + Array(repeating: -1.4, count: 8))
        #expect(mixed < ScoreModel.hamCutoff, "\(mixed)")
    }

    @Test("agreeing evidence decides: two strong tokens, or many weak ones")
    func agreeingEvidence() {
        #expect(ScoreModel.chiSquare.score(weights: [Self.strongest, Self.strongest]) >= ScoreModel.spamCutoff)
        #expect(ScoreModel.chiSquare.score(weights: Array(repeating: 1.4, count: 12)) >= ScoreModel.spamCutoff)
        #expect(ScoreModel.chiSquare.score(weights: Array(repeating: -1.4, count: 12)) < ScoreModel.hamCutoff)
        // Two or three weak tokens are not enough: unsure, not spam.
        let few = ScoreModel.chiSquare.score(weights: [1.4, 1.4, 1.4])
        #expect(few < ScoreModel.spamCutoff && few > ScoreModel.hamCutoff, "\(few)")
    }

    @Test("the score is symmetric: spam evidence mirrored is ham evidence")
    func symmetric() {
        let weights: [Double] = [2.2, 1.4, -0.8, 3, 0.9, -2]
        let s = ScoreModel.chiSquare.score(weights: weights)
        let m = ScoreModel.chiSquare.score(weights: weights.map { -$0 })
        #expect(abs(s + m - 1) < 1e-12, "\(s) + \(m)")
    }

    @Test("a rules file carries its model; a saved rule set keeps it")
    func modelHeader() throws {
        let text = "# threshold: 0.9\n# flags: -F -i -w\n# model: chi-square\nwinner\t2.2\nprize\t1.4\n"
        let file = try RuleFile(parsing: Array(text.utf8), source: "t")
        #expect(file.model == .chiSquare)
        #expect(file.text == text)
        let set = RuleSet(file)
        #expect(set.model == .chiSquare)
        let again = try RuleSet(deserializing: try set.serialized())
        #expect(again.model == .chiSquare && again == set)
        let filter = try set.spamFilter()
        #expect(filter.verdict(for: Array("winner prize".utf8)).score > 0.5)
        #expect(!filter.verdict(for: Array("winner".utf8)).isSpam, "one rule alone never decides")
        #expect(throws: TurnstileError.self) { _ = try RuleFile(parsing: Array("# model: vote\nx\n".utf8), source: "t") }
    }

    @Test("the built-in mail list is a chi-square list at a fixed threshold")
    func builtInList() {
        #expect(DefaultMailList.model == .chiSquare && RuleSet.standardMail.model == .chiSquare)
        #expect(DefaultMailList.threshold == ScoreModel.spamCutoff)
        #expect(SpamTrainer.mailSettings.thresholdRule == .fixed(ScoreModel.spamCutoff))
        #expect(!DefaultMailList.builtinRules.isEmpty)
        // The SMS list keeps its sum (issue 43 leaves it unchanged).
        #expect(RuleSet.standard.model == .sum)
    }

    static func facts(_ message: String) -> Set<String> {
        let m = MailMessage(parsing: Array(message.utf8))
        return Set(String(decoding: MailFacts.text(of: m), as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test("facts of a phishing message: brand in the display name, reply-to elsewhere, a numeric host, link text naming another domain")
    func phishingFacts() {
        let f = Self.facts("""
            From: "PayPal Service" <alert@secure-mailer.example>\r
            Reply-To: collector@other.example\r
            To: user@example.org\r
            Subject: verify\r
            Content-Type: text/html\r
            \r
            <p>Dear customer</p><a href="http://192.0.2.7/login">www.paypal.com</a>
            <form action="http://192.0.2.7/x"><input name=p></form>
            """)
        for fact in ["from_name_brand_mismatch", "reply_to_differs", "uri_numeric_host", "link_text_mismatch", "html_only", "form",
                     "uri_offsite", "no_message_id"] {
            #expect(f.contains(fact), "\(fact) in \(f.sorted())")
        }
    }

    @Test("the To address in the Subject is a fact; a subject without it, or a message without To, is not")
    func subjectNamesRecipient() {
        #expect(Self.facts("To: User <User@Example.org>\r\nSubject: user@example.org, sua entrega foi retida\r\n\r\nx").contains("subject_names_recipient"))
        #expect(!Self.facts("To: user@example.org\r\nSubject: your parcel\r\n\r\nx").contains("subject_names_recipient"))
        #expect(!Self.facts("Subject: user@example.org\r\n\r\nx").contains("subject_names_recipient"))
    }

    @Test("facts of a real notice: none of the phishing facts")
    func noticeFacts() {
        let f = Self.facts("""
            From: GitHub <noreply@github.com>\r
            To: user@example.org\r
            Message-ID: <a@github.com>\r
            Date: Mon, 02 Nov 2026 08:14:03 -0800\r
            Authentication-Results: mx.example.net; dkim=pass header.d=github.com; spf=pass; dmarc=pass\r
            Content-Type: multipart/alternative; boundary=b\r
            \r
            --b\r
            Content-Type: text/plain\r
            \r
            Reset: https://github.com/password_reset/abc\r
            --b\r
            Content-Type: text/html\r
            \r
            <a href="https://github.com/password_reset/abc">github.com/password_reset</a>\r
            --b--\r
            """)
        for fact in ["from_name_brand_mismatch", "reply_to_differs", "uri_numeric_host", "link_text_mismatch", "html_only",
                     "uri_offsite", "auth_dmarc_fail"] {
            #expect(!f.contains(fact), "\(fact) in \(f.sorted())")
        }
        #expect(f.isSuperset(of: ["uri_onsite", "html_and_text", "auth_dmarc_pass", "auth_spf_pass", "auth_dkim_pass"]), "\(f.sorted())")
    }

    @Test("attachments by kind, and the registrable domain")
    func attachmentsAndDomains() {
        var s = MailStructure()
        s.addAttachment(type: "application/octet-stream", fileName: Array("Invoice.ZIP".utf8))
        s.addAttachment(type: "application/pdf", fileName: [])
        s.addAttachment(type: "text/html", fileName: Array("secure.htm".utf8))
        #expect(s.attachmentKinds == ["archive", "pdf", "html"])
        #expect(MailFacts.registrableDomain(Array("a.b.example.co.uk".utf8)) == Array("example.co.uk".utf8))
        #expect(MailFacts.registrableDomain(Array("login.paypal.com".utf8)) == Array("paypal.com".utf8))
        #expect(MailFacts.host(ofURI: Array("https://user@Host.Example:8080/x".utf8)) == Array("host.example".utf8))
    }
}
