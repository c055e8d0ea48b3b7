// Labelled records: the input of `turnstile eval` and `turnstile train`.
//
// The format is the SMS Spam Collection's: one record per line, `label<TAB>text`,
// with the labels `spam` and `ham`. A line whose label is neither is an error that
// names the line; blank lines are skipped.

/// A record and whether it is spam (spam is the positive class).
///
/// ```swift
/// let records = try LabelledRecord.parse(Array("spam\tWIN cash\nham\tsee you\n".utf8), source: "a.tsv")
/// records.map(\.isSpam)   // [true, false]
/// ```
public struct LabelledRecord: Sendable, Hashable {
    /// `true` for spam, `false` for ham.
    public var isSpam: Bool
    /// The text, without the label and the TAB (raw bytes, not necessarily UTF-8).
    public var text: [UInt8]

    public init(isSpam: Bool, text: [UInt8]) {
        self.isSpam = isSpam
        self.text = text
    }

    public init(isSpam: Bool, _ text: String) {
        self.init(isSpam: isSpam, text: Array(text.utf8))
    }

    /// The label of a `label<TAB>text` line: `true` for `spam`, `false` for `ham`,
    /// nil for anything else (a line without a TAB has no label).
    ///
    /// Returns the label and the offset where the text starts.
    public static func label<C: Collection<UInt8>>(of line: C) -> (isSpam: Bool, textStart: C.Index)? {
        guard let tab = line.firstIndex(of: 0x09) else { return nil }
        let label = line[line.startIndex..<tab]
        if label.elementsEqual("spam".utf8) { return (true, line.index(after: tab)) }
        if label.elementsEqual("ham".utf8) { return (false, line.index(after: tab)) }
        return nil
    }

    /// Why a line has no known label, in a few words ("unknown label \"x\" …").
    public static func unknownLabelMessage<C: Collection<UInt8>>(_ lineBytes: C) -> String {
        let labelBytes = lineBytes.prefix { $0 != 0x09 }
        let shown = String(decoding: labelBytes.prefix(40), as: UTF8.self)
        return lineBytes.contains(0x09)
            ? "unknown label \"\(shown)\" (expected spam or ham before the TAB)"
            : "no label (expected 'spam<TAB>text' or 'ham<TAB>text')"
    }

    /// The error for line `line` (1-based) of `source` whose label is unknown.
    public static func unknownLabelError<C: Collection<UInt8>>(_ lineBytes: C, source: String, line: Int) -> TurnstileError {
        TurnstileError(.invalidInput(source: source, line: line, message: unknownLabelMessage(lineBytes)))
    }

    /// Whether a line is blank (empty, or only spaces, TABs and a `\r`): such lines
    /// are skipped rather than rejected.
    public static func isBlank<C: Collection<UInt8>>(_ line: C) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Every record of a whole labelled file. A `\r` before a line end is dropped.
    ///
    /// - Throws: ``TurnstileError`` naming the first line with an unknown label.
    /// - Complexity: O(bytes).
    public static func parse(_ bytes: [UInt8], source: String) throws(TurnstileError) -> [LabelledRecord] {
        var records: [LabelledRecord] = []
        var lineNumber = 0
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for rawLine in lines {
            lineNumber += 1
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            if isBlank(line) { continue }
            guard let (isSpam, start) = label(of: line) else {
                throw unknownLabelError(line, source: source, line: lineNumber)
            }
            records.append(LabelledRecord(isSpam: isSpam, text: Array(line[start...])))
        }
        return records
    }
}
