// Facts about a message that no single word shows: how its sender, its links and its
// MIME structure relate. Each fact is one word ([a-z0-9_]) on a line of the `fact:`
// part (MailScope), so rules and training see them exactly as words of any other part:
// `fact:reply_to_differs`, `fact:uri_numeric_host`, `fact:link_text_mismatch`.
//
// Facts generalise; none names a corpus (no addresses, list ids, host names or dates).
//   sender     from_name_brand_mismatch (the display name names a brand its domain does
//              not carry), from_name_has_address (an address in the display name with
//              another domain), reply_to_differs, from_freemail, no_from, no_message_id,
//              no_date, to_missing, subject_names_recipient (the To address in the Subject)
//   auth       auth_spf_pass/fail, auth_dkim_pass/fail, auth_dmarc_pass/fail (from
//              Authentication-Results and Received-SPF), received_hops_0, received_hops_1
//   uris       uri_none, uri_numeric_host, uri_shortener, uri_free_host (sites and
//              storage where anyone can publish a page), uri_cheap_tld, uri_offsite
//              (no link on the sender's own domain), uri_onsite, uri_at_sign (user@host
//              disguise), uri_many (10 or more)
//   structure html_only, html_and_text, text_only, base64_text, form,
//              link_text_mismatch, attach_<kind> (pdf, archive, html, executable,
//              office, calendar, image, signature, text, other)
//   disguise   mixed_script_word (Cyrillic or Greek look-alike letters in a Latin word),
//              invisible_in_word (a zero-width character between Latin letters): what
//              MailTextFolding undid in the subject or the body
//
// Known limits: the registrable domain is the last two labels, three under a
// two-letter country code's second level (co.uk, com.br); there is no public-suffix
// list. Brand names are a short list of the most impersonated senders.

/// The fact words of a message.
///
/// ```swift
/// let m = MailMessage(parsing: Array("From: \"PayPal\" <x@mailer.example>\r\nReply-To: y@other.example\r\n\r\nhttp://192.0.2.1/login".utf8))
/// String(decoding: MailFacts.text(of: m), as: UTF8.self)
/// // "from_name_brand_mismatch\nreply_to_differs\n…uri_numeric_host\n…"
/// ```
///
/// - Complexity: O(header bytes + URI bytes) per message.
public enum MailFacts {
    /// The facts of `message`, one word per line.
    public static func text(of message: MailMessage) -> [UInt8] {
        var facts: [String] = []
        let from = message.values(of: Array("from".utf8))
        let (name, address) = splitAddress(from)
        let fromDomain = address.flatMap(domain(ofAddress:)) ?? []
        if from.isEmpty { facts.append("no_from") }
        if !fromDomain.isEmpty {
            let nameWords = letterWords(MailTextFolding.folded(name))
            let fromRegistrable = registrableDomain(fromDomain)
            if nameWords.contains(where: { brandWords.contains($0) && !contains(fromDomain, Array($0.utf8)) }) {
                facts.append("from_name_brand_mismatch")
            }
            if let named = domainNamed(in: name[...]), registrableDomain(named) != fromRegistrable {
                facts.append("from_name_has_address")
            }
            if freemail.contains(String(decoding: fromRegistrable, as: UTF8.self)) { facts.append("from_freemail") }
            let replyTo = message.values(of: Array("reply-to".utf8))
            if !replyTo.isEmpty, let r = splitAddress(replyTo).address.flatMap(domain(ofAddress:)),
               registrableDomain(r) != fromRegistrable {
                facts.append("reply_to_differs")
            }
        }
        if subjectNamesRecipient(message) { facts.append("subject_names_recipient") }
        if message.values(of: Array("message-id".utf8)).isEmpty { facts.append("no_message_id") }
        if message.values(of: Array("date".utf8)).isEmpty { facts.append("no_date") }
        if message.values(of: Array("to".utf8)).isEmpty { facts.append("to_missing") }
        authenticationFacts(message, into: &facts)
        let hops = message.fields.count { $0.name == Array("received".utf8) }
        if hops == 0 { facts.append("received_hops_0") } else if hops == 1 { facts.append("received_hops_1") }

        uriFacts(message.uris, fromDomain: fromDomain, into: &facts)

        let s = message.structure
        if s.htmlParts > 0 && s.plainParts == 0 { facts.append("html_only") }
        if s.htmlParts > 0 && s.plainParts > 0 { facts.append("html_and_text") }
        if s.htmlParts == 0 && s.plainParts > 0 { facts.append("text_only") }
        if s.base64Text { facts.append("base64_text") }
        if s.html.forms > 0 { facts.append("form") }
        if s.html.linkTextNamesOtherDomain { facts.append("link_text_mismatch") }
        for kind in s.attachmentKinds.sorted() { facts.append("attach_" + kind) }
        if s.disguises.mixedScriptWords > 0 { facts.append("mixed_script_word") }
        if s.disguises.invisibleInWords > 0 { facts.append("invisible_in_word") }

        var out: [UInt8] = []
        for f in facts { out += f.utf8; out.append(0x0A) }
        return out
    }

    // MARK: Senders

    /// Whether the Subject holds the first To address ("user@example.org, your parcel is
    /// held"): a bulk sender's mail-merge of the address it harvested, not how people or
    /// services address a subject.
    static func subjectNamesRecipient(_ message: MailMessage) -> Bool {
        guard let address = splitAddress(message.values(of: Array("to".utf8))).address else { return false }
        let trimmed = address.filter { isHostByte($0) || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "+") }
        guard let at = trimmed.firstIndex(of: UInt8(ascii: "@")), at > 0, at + 1 < trimmed.count else { return false }
        return contains(message.subject.map(lower), trimmed.map(lower))
    }

    /// The display name and the address of an address field ("Name <a@b>", "a@b (Name)", "a@b").
    static func splitAddress(_ value: [UInt8]) -> (name: [UInt8], address: [UInt8]?) {
        if let open = value.lastIndex(of: UInt8(ascii: "<")) {
            let close = value[open...].firstIndex(of: UInt8(ascii: ">")) ?? value.endIndex
            let name = value[..<open].filter { $0 != UInt8(ascii: "\"") }
            return (Array(name), Array(value[(open + 1)..<close]))
        }
        for word in value.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == UInt8(ascii: ",") })
            where word.contains(UInt8(ascii: "@")) {
            return ([], Array(word))
        }
        return (value, nil)
    }

    /// The lowercase domain of an address, without trailing punctuation.
    static func domain(ofAddress a: [UInt8]) -> [UInt8]? {
        guard let at = a.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let d = a[(at + 1)...].prefix { isHostByte($0) }
        return d.isEmpty ? nil : d.map(lower)
    }

    /// The impersonated brands a display name may name (lowercase ASCII words).
    static let brandWords: Set<String> = [
        "paypal", "apple", "icloud", "microsoft", "outlook", "office365", "onedrive", "sharepoint", "netflix", "amazon",
        "dhl", "fedex", "ups", "usps", "correios", "docusign", "dropbox", "adobe", "google", "gmail",
        "facebook", "instagram", "whatsapp", "linkedin", "coinbase", "binance", "metamask", "trezor",
        "wellsfargo", "citibank", "hsbc", "barclays", "santander", "bradesco", "itau", "caixa", "nubank",
        "serasa", "sicoob", "sicredi", "mercadolivre", "mercadopago", "magalu", "americanas", "shopee", "shein",
        "norton", "mcafee", "spotify", "irs", "hmrc", "walmart", "costco", "ebay",
        "airbnb", "verizon", "vodafone", "webmail", "mailbox", "helpdesk", "administrator", "postmaster",
        "livelo", "receita", "detran", "govbr", "banco", "bank",
    ]

    static let freemail: Set<String> = [
        "gmail.com", "googlemail.com", "hotmail.com", "outlook.com", "live.com", "msn.com", "yahoo.com", "aol.com",
        "icloud.com", "me.com", "mail.com", "gmx.com", "gmx.de", "gmx.net", "web.de", "yandex.ru", "mail.ru",
        "proton.me", "protonmail.com", "zoho.com", "yahoo.com.br", "hotmail.com.br", "bol.com.br", "uol.com.br",
        "terra.com.br", "qq.com", "163.com",
    ]

    // MARK: Authentication

    // PERF: bytes, not String.contains (which went through the regex library): the facts
    // were 22 % of `filter --format mbox` with it, 15 % for this function alone.
    static func authenticationFacts(_ message: MailMessage, into facts: inout [String]) {
        var results = message.values(of: Array("authentication-results".utf8))
        results.append(0x0A)
        results += message.values(of: Array("arc-authentication-results".utf8))
        for i in results.indices { results[i] = lower(results[i]) }
        for method in ["spf", "dkim", "dmarc"] {
            if contains(results, Array((method + "=pass").utf8)) { facts.append("auth_\(method)_pass") }
            if contains(results, Array((method + "=fail").utf8)) || contains(results, Array((method + "=softfail").utf8))
                || contains(results, Array((method + "=permerror").utf8)) { facts.append("auth_\(method)_fail") }
        }
        let spf = message.values(of: Array("received-spf".utf8)).prefix(8).map(lower)
        if spf.starts(with: Array("pass".utf8)), !facts.contains("auth_spf_pass") { facts.append("auth_spf_pass") }
        if spf.starts(with: Array("fail".utf8)) || spf.starts(with: Array("softfail".utf8)), !facts.contains("auth_spf_fail") {
            facts.append("auth_spf_fail")
        }
    }

    // MARK: URIs

    static func uriFacts(_ uris: [UInt8], fromDomain: [UInt8], into facts: inout [String]) {
        var count = 0
        var numeric = false, shortened = false, freeHost = false, cheap = false, atSign = false
        var onsite = false
        let fromRegistrable = fromDomain.isEmpty ? [] : registrableDomain(fromDomain)
        for line in uris.split(separator: 0x0A) {
            guard let host = host(ofURI: line) else { continue }
            count += 1
            if isNumericHost(host) { numeric = true; continue }
            let reg = registrableDomain(host)
            let regText = String(decoding: reg, as: UTF8.self)
            if shorteners.contains(regText) { shortened = true }
            if freeHosts.contains(regText) { freeHost = true }
            if let tld = host.split(separator: UInt8(ascii: ".")).last,
               cheapTLDs.contains(String(decoding: tld, as: UTF8.self)) { cheap = true }
            if !fromRegistrable.isEmpty, reg == fromRegistrable { onsite = true }
            let afterScheme = line.drop { $0 != UInt8(ascii: "/") }.drop { $0 == UInt8(ascii: "/") }
            if afterScheme.prefix(while: { $0 != UInt8(ascii: "/") }).contains(UInt8(ascii: "@")) { atSign = true }
        }
        if count == 0 { facts.append("uri_none"); return }
        if numeric { facts.append("uri_numeric_host") }
        if shortened { facts.append("uri_shortener") }
        if freeHost { facts.append("uri_free_host") }
        if cheap { facts.append("uri_cheap_tld") }
        if atSign { facts.append("uri_at_sign") }
        if !fromRegistrable.isEmpty { facts.append(onsite ? "uri_onsite" : "uri_offsite") }
        if count >= 10 { facts.append("uri_many") }
    }

    static let shorteners: Set<String> = [
        "bit.ly", "tinyurl.com", "t.co", "goo.gl", "ow.ly", "is.gd", "cutt.ly", "rebrand.ly", "shorturl.at",
        "tiny.cc", "rb.gy", "t.ly", "buff.ly", "s.id", "bitly.com", "shorte.st", "v.gd", "qrco.de", "tinu.be",
        "encurtador.com.br", "l.ead.me", "urlz.fr", "lnkd.in",
    ]

    static let freeHosts: Set<String> = [
        "web.app", "firebaseapp.com", "appspot.com", "googleapis.com", "windows.net", "r2.dev", "pages.dev",
        "workers.dev", "github.io", "netlify.app", "vercel.app", "glitch.me", "ngrok.io", "ngrok-free.app",
        "weebly.com", "wixsite.com", "000webhostapp.com", "blogspot.com", "sites.google.com", "ipfs.io",
        "dweb.link", "herokuapp.com", "azurewebsites.net", "onrender.com", "repl.co", "surge.sh", "webflow.io",
        "myshopify.com", "square.site", "godaddysites.com", "jimdosite.com", "wordpress.com", "mystrikingly.com",
        "typeform.com", "forms.gle", "formstack.com", "jotform.com", "canva.site", "notion.site", "linktr.ee",
        "backblazeb2.com", "digitaloceanspaces.com", "amazonaws.com", "cloudfront.net", "trycloudflare.com",
        "framer.app", "carrd.co", "webcindario.com",
    ]

    static let cheapTLDs: Set<String> = [
        "xyz", "top", "click", "online", "site", "shop", "icu", "buzz", "live", "monster", "cfd", "sbs", "rest",
        "bond", "lat", "work", "support", "cyou", "quest", "fun", "space", "website", "store", "tk", "ml", "ga",
        "cf", "gq", "pw", "cc", "ru", "cn", "su", "life", "club", "vip", "win", "loan", "date", "bid", "men",
    ]

    /// The lowercase host of a URI (`http://h/`, `https://u@h:1/`, `www.h`), nil when it has none.
    static func host(ofURI uri: some Collection<UInt8>) -> [UInt8]? {
        var rest = Array(uri)[...]
        let lowered = rest.prefix(8).map(lower)
        if lowered.starts(with: Array("http://".utf8)) { rest = rest.dropFirst(7) }
        else if lowered.starts(with: Array("https://".utf8)) { rest = rest.dropFirst(8) }
        else if !lowered.starts(with: Array("www.".utf8)) { return nil }
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        var host = authority[...]
        if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
        host = host.prefix { $0 != UInt8(ascii: ":") }
        while host.last == UInt8(ascii: ".") { host = host.dropLast() }
        guard !host.isEmpty, host.allSatisfy(isHostByte) else { return nil }
        return host.map(lower)
    }

    static func isNumericHost(_ host: [UInt8]) -> Bool {
        host.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") } && host.count(where: { $0 == UInt8(ascii: ".") }) == 3
    }

    /// The registrable part of a host: its last two labels, three when the second to
    /// last is a generic second level under a two-letter country code (`co.uk`, `com.br`).
    static func registrableDomain(_ host: [UInt8]) -> [UInt8] {
        let labels = host.split(separator: UInt8(ascii: "."))
        guard labels.count > 2 else { return host }
        let n = labels.count
        let second = String(decoding: labels[n - 2], as: UTF8.self)
        let keep = labels[n - 1].count == 2 && secondLevels.contains(second) ? 3 : 2
        return Array(labels.suffix(keep).joined(separator: [UInt8(ascii: ".")]))
    }

    static let secondLevels: Set<String> = ["co", "com", "org", "net", "gov", "edu", "ac", "gob", "nic", "ne", "or", "go"]

    /// The first domain-like word of `text` ("www.paypal.com", "paypal.com/login",
    /// "https://x.example"), lowercase, or nil.
    static func domainNamed(in text: ArraySlice<UInt8>) -> [UInt8]? {
        for word in text.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) {
            var w = word[...]
            if let h = host(ofURI: w) { return h }
            if let at = w.lastIndex(of: UInt8(ascii: "@")) { w = w[(at + 1)...] }
            let hostPart = w.prefix { isHostByte($0) }
            let labels = hostPart.split(separator: UInt8(ascii: "."))
            guard labels.count >= 2, let tld = labels.last, tld.count >= 2, tld.count <= 6,
                  tld.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }),
                  commonTLDs.contains(String(decoding: tld.map(lower), as: UTF8.self))
            else { continue }
            var h = Array(hostPart).map(lower)
            while h.last == UInt8(ascii: ".") { h.removeLast() }
            return h
        }
        return nil
    }

    static let commonTLDs: Set<String> = [
        "com", "net", "org", "br", "io", "co", "uk", "de", "info", "biz", "us", "ru", "app", "me", "gov", "edu",
        "xyz", "online", "site", "top", "shop", "fr", "es", "it", "nl", "ca", "au", "jp", "cn", "in", "pt", "mx",
    ]

    // MARK: Bytes

    static func isHostByte(_ b: UInt8) -> Bool {
        (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// The lowercase ASCII letter runs of `text`.
    static func letterWords(_ text: [UInt8]) -> [String] {
        text.split { !(($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }.map { String(decoding: $0.map(lower), as: UTF8.self) }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
