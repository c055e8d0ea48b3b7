// Folding a message's decoded text to what its words read as in ASCII, before rules and
// training see them (issue 52). Rules are matched as whole ASCII words (`-F -w -i`) and
// training keeps only all-ASCII words, so without folding `prêmio` never meets the rule
// `premio`, and its ASCII pieces (`pr`, `mio`) are counted instead; a phishing message
// that writes `PаyPal` with a Cyrillic `а`, or `pa<U+200B>ypal`, or `𝐏𝐚𝐲𝐏𝐚𝐥`, hides the
// word from every rule. What a reader reads, rules read:
//
//   diacritics     Latin letters with marks lose them (ê -> e, Ç -> C, ß -> ss), and
//                  combining diacritical marks are dropped (NFD text: e + U+0302 -> e)
//   look-alikes    Cyrillic and Greek letters shaped like Latin ones (а е о р с у х,
//                  ο ρ ν …) are folded inside words that are otherwise Latin; a Cyrillic
//                  or Greek word stays as it is
//   invisible      zero-width characters (U+200B-U+200D, U+2060, U+FEFF, soft hyphen, …)
//                  are removed, so the word they split is one word again
//   styled         full-width forms (ＷＩＮ), mathematical styled letters and digits (𝐏),
//                  letterlike symbols (ℂ) and circled letters (Ⓐ) become ASCII
//   punctuation    no-break and other wide spaces become a space, typographic quotes and
//                  dashes ASCII ones, so phrases and `don’t` read as typed
//
// Look-alikes inside Latin words and invisible characters between Latin letters are what
// a sender does to hide words, not what a writer does: they are counted (TextDisguises)
// and become the facts `mixed_script_word` and `invisible_in_word` (MailFacts).
// URIs are scanned from the text before it is folded (MailMessage), so links stay as sent.
// Tables: Generated/MailTextFoldingTables.swift (Scripts/generate-mail-text-folding.py).
// Known limits: other scripts' letters are kept as they are (their words are not ASCII
// and no rule of the built-in list names them); a Cyrillic word made only of look-alikes
// is not folded (it has no Latin letter to say it is a Latin word).

import AutomatonCore

/// What folding removed or replaced that a reader does not see as such.
public struct TextDisguises: Sendable, Hashable {
    /// Words of Latin letters holding Cyrillic or Greek look-alike letters.
    public var mixedScriptWords = 0
    /// Words whose Latin letters an invisible character split.
    public var invisibleInWords = 0

    public init() {}
}

/// Folds decoded text to ASCII where a reader would read ASCII letters.
///
/// ```swift
/// var found = TextDisguises()
/// let text = Array("Prêmio: Pаypal pa\u{200B}ypal ＷＩＮ 𝐅𝐑𝐄𝐄".utf8)
/// String(decoding: MailTextFolding.folded(text, disguises: &found), as: UTF8.self)
/// // "Premio: Paypal paypal WIN FREE"; found.mixedScriptWords == 1, found.invisibleInWords == 1
/// ```
///
/// - Complexity: O(text bytes); all-ASCII text is returned without a copy.
public enum MailTextFolding {
    /// `text` folded (see the file's header).
    public static func folded(_ text: [UInt8]) -> [UInt8] {
        var ignored = TextDisguises()
        return folded(text, disguises: &ignored)
    }

    /// `text` folded; what hid words is added to `disguises`.
    public static func folded(_ text: [UInt8], disguises: inout TextDisguises) -> [UInt8] {
        // PERF: `filter --format mbox`: most English mail is ASCII, and a scan for a high
        // byte is much cheaper than decoding.
        guard text.contains(where: { $0 >= 0x80 }) else { return text }
        var folder = Folder(capacity: text.count)
        text.withUnsafeBufferPointer { folder.fold($0) }
        folder.endWord()
        disguises.mixedScriptWords += folder.found.mixedScriptWords
        disguises.invisibleInWords += folder.found.invisibleInWords
        return folder.out
    }

    /// The folding of one text: the output and the state of the word being written.
    private struct Folder {
        var out: [UInt8] = []
        var found = TextDisguises()
        /// Where the current word starts in `out`; nil between words.
        var wordStart: Int? = nil
        var wordHasLatin = false
        var wordHasLookAlike = false
        /// A letter of another script that is no look-alike: the word is not Latin.
        var wordHasForeign = false
        /// The last scalar written was a Latin letter (ASCII or folded).
        var lastWasLatin = false
        /// An invisible character came right after a Latin letter.
        var invisibleAfterLatin = false
        var wordHadInvisible = false

        init(capacity: Int) { out.reserveCapacity(capacity) }

        mutating func fold(_ text: UnsafeBufferPointer<UInt8>) {
            var i = 0
            let n = text.count
            while i < n {
                let b = text[i]
                if b < 0x80 { writeASCII(b); i += 1; continue }
                guard let (scalar, length) = decode(text, at: i) else {
                    endWord(); out.append(b); i += 1; continue
                }
                writeScalar(scalar, raw: text[i..<(i + length)])
                i += length
            }
        }

        mutating func writeASCII(_ b: UInt8) {
            if isASCIIWordByte(b) {
                let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
                beginWord()
                if letter {
                    wordHasLatin = true
                    if invisibleAfterLatin { wordHadInvisible = true }
                }
                invisibleAfterLatin = false
                lastWasLatin = letter
                out.append(b)
            } else {
                endWord()
                out.append(b)
            }
        }

        mutating func writeScalar(_ s: UInt32, raw: Slice<UnsafeBufferPointer<UInt8>>) {
            if MailTextFolding.isInvisible(s) {
                if lastWasLatin { invisibleAfterLatin = true }
                return  // removed; the word goes on
            }
            if MailTextFolding.isCombiningDiacritic(s) { return }
            if let ascii = MailTextFolding.asciiPunctuation(s) {
                for b in ascii.utf8 { writeASCII(b) }
                return
            }
            if let letters = MailTextFolding.latinLetters(s) ?? MailTextFolding.styledCharacter(s) {
                for b in letters { writeASCII(b) }
                return
            }
            invisibleAfterLatin = false
            lastWasLatin = false
            if MailTextFolding.lookAlike(s) != nil {
                beginWord()
                wordHasLookAlike = true
                out.append(contentsOf: raw)
                return
            }
            guard let scalar = Unicode.Scalar(s), WordTokenizer.isWordScalar(scalar) else {
                endWord()
                out.append(contentsOf: raw)
                return
            }
            beginWord()
            if scalar.properties.isAlphabetic { wordHasForeign = true }
            out.append(contentsOf: raw)
        }

        mutating func beginWord() {
            if wordStart == nil { wordStart = out.count }
        }

        /// Ends the current word: folds its look-alikes when it is a Latin word.
        mutating func endWord() {
            defer {
                wordStart = nil
                wordHasLatin = false; wordHasLookAlike = false; wordHasForeign = false
                lastWasLatin = false; invisibleAfterLatin = false; wordHadInvisible = false
            }
            guard let start = wordStart else { return }
            if wordHadInvisible { found.invisibleInWords += 1 }
            guard wordHasLookAlike, wordHasLatin, !wordHasForeign else { return }
            found.mixedScriptWords += 1
            var word: [UInt8] = []
            out.withUnsafeBufferPointer { buffer in
                var i = start
                while i < buffer.count {
                    if buffer[i] < 0x80 { word.append(buffer[i]); i += 1; continue }
                    guard let (s, length) = decode(buffer, at: i) else { word.append(buffer[i]); i += 1; continue }
                    if let a = MailTextFolding.lookAlike(s) { word.append(a) } else { word += buffer[i..<(i + length)] }
                    i += length
                }
            }
            out.replaceSubrange(start..., with: word)
        }
    }

    /// The scalar at `i` of well-formed UTF-8 and its length, nil for a malformed sequence.
    private static func decode(_ t: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let b = UInt32(t[i])
        let n = t.count
        func cont(_ k: Int) -> UInt32? {
            guard i + k < n, t[i + k] & 0xC0 == 0x80 else { return nil }
            return UInt32(t[i + k] & 0x3F)
        }
        if b & 0xE0 == 0xC0, b >= 0xC2, let c1 = cont(1) { return ((b & 0x1F) << 6 | c1, 2) }
        if b & 0xF0 == 0xE0, let c1 = cont(1), let c2 = cont(2) {
            let s = (b & 0x0F) << 12 | c1 << 6 | c2
            return s >= 0x800 && !(0xD800...0xDFFF).contains(s) ? (s, 3) : nil
        }
        if b & 0xF8 == 0xF0, let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) {
            let s = (b & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            return s >= 0x10000 && s <= 0x10FFFF ? (s, 4) : nil
        }
        return nil
    }

    /// Zero-width and other invisible format characters that may sit inside a word.
    static func isInvisible(_ s: UInt32) -> Bool {
        switch s {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B...0x200F, 0x202A...0x202E,
             0x2060...0x2064, 0x2066...0x206F, 0x3164, 0xFEFF, 0xFFA0:
            return true
        default:
            return false
        }
    }

    /// The combining diacritical marks (the blocks of marks for Latin letters).
    static func isCombiningDiacritic(_ s: UInt32) -> Bool {
        (0x0300...0x036F).contains(s) || (0x1AB0...0x1AFF).contains(s) || (0x1DC0...0x1DFF).contains(s)
            || (0x20D0...0x20FF).contains(s) || (0xFE20...0xFE2F).contains(s)
    }

    /// The ASCII of wide spaces, typographic quotes, dashes and the ellipsis.
    static func asciiPunctuation(_ s: UInt32) -> String? {
        switch s {
        case 0x00A0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return " "
        case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x02BC: return "'"
        case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0x00AB, 0x00BB: return "\""
        case 0x2010...0x2015, 0x2212: return "-"
        case 0x2026: return "..."
        default: return nil
        }
    }

    /// The ASCII letters of a Latin letter with diacritics ("ê" -> "e", "ß" -> "ss").
    static func latinLetters(_ s: UInt32) -> [UInt8]? {
        let packed: UInt16
        if s >= MailTextFoldingTables.latin1Start, s < MailTextFoldingTables.latin1Start + UInt32(MailTextFoldingTables.latin1.count) {
            packed = MailTextFoldingTables.latin1[Int(s - MailTextFoldingTables.latin1Start)]
        } else if s >= MailTextFoldingTables.latinAdditionalStart,
                  s < MailTextFoldingTables.latinAdditionalStart + UInt32(MailTextFoldingTables.latinAdditional.count) {
            packed = MailTextFoldingTables.latinAdditional[Int(s - MailTextFoldingTables.latinAdditionalStart)]
        } else {
            return nil
        }
        if packed == 0 { return nil }
        let second = UInt8(packed >> 8)
        return second == 0 ? [UInt8(packed & 0xFF)] : [UInt8(packed & 0xFF), second]
    }

    /// The ASCII character of a full-width form or a styled letter or digit.
    static func styledCharacter(_ s: UInt32) -> [UInt8]? {
        if (0xFF01...0xFF5E).contains(s) { return [UInt8(s - 0xFEE0)] }
        func look(_ table: [UInt8], _ start: UInt32) -> [UInt8]? {
            guard s >= start, s < start + UInt32(table.count) else { return nil }
            let b = table[Int(s - start)]
            return b == 0 ? nil : [b]
        }
        return look(MailTextFoldingTables.mathematical, MailTextFoldingTables.mathematicalStart)
            ?? look(MailTextFoldingTables.letterlike, MailTextFoldingTables.letterlikeStart)
            ?? look(MailTextFoldingTables.circled, MailTextFoldingTables.circledStart)
    }

    /// The Latin letter a Cyrillic or Greek letter is drawn like, if any.
    static func lookAlike(_ s: UInt32) -> UInt8? {
        guard (0x0370...0x052F).contains(s) else { return nil }
        return lookAlikes[s]
    }

    static let lookAlikes: [UInt32: UInt8] = {
        let pairs: [(Character, Character)] = [
            // Cyrillic
            ("а", "a"), ("е", "e"), ("о", "o"), ("р", "p"), ("с", "c"), ("у", "y"), ("х", "x"), ("і", "i"),
            ("ј", "j"), ("ѕ", "s"), ("ԁ", "d"), ("ԛ", "q"), ("ԝ", "w"), ("һ", "h"), ("ӏ", "l"), ("ѵ", "v"),
            ("А", "A"), ("В", "B"), ("Е", "E"), ("К", "K"), ("М", "M"), ("Н", "H"), ("О", "O"), ("Р", "P"),
            ("С", "C"), ("Т", "T"), ("Х", "X"), ("І", "I"), ("Ј", "J"), ("Ѕ", "S"), ("У", "Y"), ("Ү", "Y"),
            ("Ԁ", "D"), ("Ԛ", "Q"), ("Ԝ", "W"), ("Һ", "H"), ("Ӏ", "I"),
            // Greek
            ("α", "a"), ("ο", "o"), ("ρ", "p"), ("ν", "v"), ("ι", "i"), ("κ", "k"), ("υ", "u"), ("ϲ", "c"),
            ("ϳ", "j"), ("Α", "A"), ("Β", "B"), ("Ε", "E"), ("Ζ", "Z"), ("Η", "H"), ("Ι", "I"), ("Κ", "K"),
            ("Μ", "M"), ("Ν", "N"), ("Ο", "O"), ("Ρ", "P"), ("Τ", "T"), ("Υ", "Y"), ("Χ", "X"), ("Ϲ", "C"),
        ]
        var map: [UInt32: UInt8] = [:]
        for (from, to) in pairs { map[from.unicodeScalars.first!.value] = to.asciiValue! }
        return map
    }()
}
