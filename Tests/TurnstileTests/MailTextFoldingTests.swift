import Testing
@testable import Turnstile

/// MailTextFolding: a message's words as a reader reads them, in ASCII, and the
/// disguises it undid counted; the facts and rules see the folded words.
@Suite("Mail text folding")
struct MailTextFoldingTests {
    static func fold(_ s: String) -> (String, TextDisguises) {
        var found = TextDisguises()
        let out = MailTextFolding.folded(Array(s.utf8), disguises: &found)
        return (String(decoding: out, as: UTF8.self), found)
    }

    @Test("diacritics: precomposed letters and combining marks read as their ASCII letters",
          arguments: [
              ("Prêmio você ganhou! Ação", "Premio voce ganhou! Acao"),
              ("pre\u{0302}mio", "premio"),  // NFD: e + COMBINING CIRCUMFLEX
              ("Straße, Æther, Øre, Łódź, þing", "Strasse, AEther, Ore, Lodz, thing"),
              ("Việt Nam ĐẸP", "Viet Nam DEP"),
          ])
    func diacritics(input: String, expected: String) {
        let (out, found) = Self.fold(input)
        #expect(out == expected)
        #expect(found == TextDisguises())
    }

    @Test("look-alike Cyrillic and Greek letters are folded inside Latin words only, and counted")
    func lookAlikes() {
        // "PаyPal" with CYRILLIC SMALL LETTER A; "Micrοsoft" with GREEK SMALL LETTER OMICRON.
        let (out, found) = Self.fold("Your PаyPal and Micrοsoft account")
        #expect(out == "Your PayPal and Microsoft account")
        #expect(found.mixedScriptWords == 2)
        // Russian and Greek words stay as they are, look-alike letters and all.
        let (russian, none) = Self.fold("Привет, сорок рублей; καλημέρα")
        #expect(russian == "Привет, сорок рублей; καλημέρα")
        #expect(none.mixedScriptWords == 0)
        // A Latin word next to a Cyrillic one is not a mixed word.
        let (pair, apart) = Self.fold("iPhone для вас")
        #expect(pair == "iPhone для вас")
        #expect(apart.mixedScriptWords == 0)
    }

    @Test("zero-width characters are removed; between Latin letters they are counted")
    func invisible() {
        let (out, found) = Self.fold("pa\u{200B}ypal ver\u{00AD}ify\u{FEFF} ok\u{200D}")
        #expect(out == "paypal verify ok")
        #expect(found.invisibleInWords == 2)
        // At a word's edge or in another script (ZWNJ in Persian) they are not a disguise.
        let (persian, none) = Self.fold("\u{200B}hello می\u{200C}خواهم")
        #expect(persian == "hello میخواهم")
        #expect(none.invisibleInWords == 0)
    }

    @Test("styled letters: full-width, mathematical, letterlike and circled forms read as ASCII")
    func styled() {
        let (out, found) = Self.fold("ＷＩＮ ＄１００ 𝐅𝐑𝐄𝐄 𝓅𝓇𝒾𝓏𝑒 𝟗𝟗 ℂash Ⓢale")
        #expect(out == "WIN $100 FREE prize 99 Cash Sale")
        #expect(found == TextDisguises())
    }

    @Test("wide spaces, typographic quotes and dashes read as ASCII; other characters are kept")
    func punctuation() {
        let (out, _) = Self.fold("cash\u{00A0}prize don’t “now” 10–20 … 日本 € ☺")
        #expect(out == "cash prize don't \"now\" 10-20 ... 日本 € ☺")
        // Bytes that are not UTF-8 pass through unchanged.
        var found = TextDisguises()
        let bytes: [UInt8] = [0x66, 0xC6, 0x20, 0xC3, 0xA9]
        #expect(MailTextFolding.folded(bytes, disguises: &found) == [0x66, 0xC6, 0x20, 0x65])
        // ASCII text is returned as it is.
        #expect(MailTextFolding.folded(Array("plain ascii".utf8)) == Array("plain ascii".utf8))
    }

    @Test("a message: the body and subject folded, the URIs as sent, the disguises as facts, rules fire on the folded words")
    func message() throws {
        let raw = "Subject: =?UTF-8?Q?Pr=C3=AAmio?= para voc\u{00EA}\nContent-Type: text/plain; charset=utf-8\n\n"
            + "Confirme sua PаyPal em http://exemplo.example/a?b=1 ＷＷＷ.hidden.example e ve\u{200B}rifique\n"
        let m = MailMessage(parsing: Array(raw.utf8))
        let body = String(decoding: m.body, as: UTF8.self)
        #expect(body.hasPrefix("Premio para voce\n"))
        #expect(body.contains("Confirme sua PayPal em http://exemplo.example/a?b=1 WWW.hidden.example e verifique"))
        // The URIs are scanned before folding: the links as sent (a full-width "ＷＷＷ." is no link).
        #expect(String(decoding: m.uris, as: UTF8.self) == "http://exemplo.example/a?b=1\n")
        let facts = String(decoding: MailFacts.text(of: m), as: UTF8.self).split(separator: "\n")
        #expect(facts.contains("mixed_script_word"))
        #expect(facts.contains("invisible_in_word"))
        var judge = try MailJudge(rules: RuleSet(rules: [Rule("premio"), Rule("subject:premio"), Rule("paypal")],
                                                 options: SpamFilter.standardOptions), threshold: 3)
        judge.judge(m)
        #expect(Set(judge.hits.map(\.rule)) == [0, 1, 2])
        #expect(MailTokens.tokens(of: m).contains(Array("subject:premio".utf8)))
        // Plain mail has neither fact.
        let plain = MailMessage(parsing: Array("Subject: hi\n\nSee you at noon.\n".utf8))
        let plainFacts = String(decoding: MailFacts.text(of: plain), as: UTF8.self)
        #expect(!plainFacts.contains("mixed_script_word") && !plainFacts.contains("invisible_in_word"))
    }
}
