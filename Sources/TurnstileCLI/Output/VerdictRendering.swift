import Turnstile

// How a verdict is shown: `filter --explain` (text) and the verdict fields of
// `filter --json` ("score", "threshold", "rules"), for plain records and for mail
// alike, so both modes explain themselves in the same words. Every number goes through
// ScorePrecision.text, so the weights shown add up to the score shown.

/// Writes a record's verdict as `--explain` text or as JSON fields.
///
/// The `--explain` format, one block per record:
///
///     record 2: spam, score 8.0008, threshold 6.9523
///       +3.6638  0:6  urgent
///        +4.337  8:13  claim
///
/// A list with an unsure band (`# model: chi-square`) calls a record that is not spam
/// but scores from ``ScoreModel/hamCutoff`` up `unsure` and says where the band
/// starts: `record 3: unsure, score 0.886, threshold 0.9, unsure from 0.2`.
/// With several inputs the first line starts with `FILE: `. Each rule that fired
/// follows on its own line, in the order the search found them (a word list reports
/// a match where it ends): its weight with a sign, right-aligned after at least two
/// spaces; two spaces and the byte offsets `start:end` of its first match (end
/// exclusive) within the record (for mail: within the part the rule looks at); two
/// spaces and the rule's pattern as written (a line feed or carriage return in it
/// shown as `\n`, `\r`). A record no rule fired in is its first line alone.
struct VerdictRendering {
    /// The rules, by rule id (with their scope prefixes for mail).
    let rules: [Rule]
    let threshold: Double
    let precision: ScorePrecision
    /// The threshold as printed.
    private let thresholdText: String
    /// Per rule id, filled when the rule first fires: its signed weight as `--explain`
    /// prints it, and its JSON fields `{"rule":i,"pattern":"…","weight":w,` (a record of
    /// the SMS file has 10 hits; writing them from scratch doubled `--json`'s time).
    private var explainWeights: [String?]
    private var jsonFields: [[UInt8]?]

    init(rules: [Rule], threshold: Double, precision: ScorePrecision) {
        self.rules = rules
        self.threshold = threshold
        self.precision = precision
        thresholdText = precision.text(threshold)
        explainWeights = Array(repeating: nil, count: rules.count)
        jsonFields = Array(repeating: nil, count: rules.count)
    }

    /// Appends the `--explain` block of a record; `isUnsure` when the list's model has an
    /// unsure band (chi-square) and the record, not spam, scores in it.
    mutating func appendExplanation(
        record: Int, file: String?, isSpam: Bool, isUnsure: Bool, score: Double, hits: ArraySlice<RuleHit>,
        to out: inout [UInt8]
    ) {
        if let file { out.append(contentsOf: file.utf8); out.append(contentsOf: ": ".utf8) }
        let verdict = isSpam ? "spam" : isUnsure ? "unsure" : "clean"
        out.append(contentsOf: "record \(record): \(verdict), score \(precision.text(score)), threshold \(thresholdText)".utf8)
        // The band's lower end, so a reader sees how far from ham the record is.
        if isUnsure { out.append(contentsOf: ", unsure from \(precision.text(ScoreModel.hamCutoff))".utf8) }
        out.append(0x0A)
        // Weights right-aligned within the record, as SpamAssassin's points column.
        var width = 0
        for hit in hits { width = max(width, explainWeight(hit.rule).utf8.count) }
        for hit in hits {
            let weight = explainWeight(hit.rule)
            for _ in 0..<(2 + width - weight.utf8.count) { out.append(UInt8(ascii: " ")) }
            out.append(contentsOf: weight.utf8)
            out.append(contentsOf: "  \(hit.start):\(hit.end)  ".utf8)
            for byte in rules[hit.rule].pattern {
                switch byte {
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                default: out.append(byte)
                }
            }
            out.append(0x0A)
        }
    }

    /// Appends `"unsure":b,"score":S,"threshold":T,"rules":[…]` (no surrounding
    /// braces): each rule that fired as `{"rule":id,"pattern":"…","weight":w,"start":s,"end":e}`,
    /// its offsets moved by `offset` (0 for record-relative offsets). `"unsure"` is
    /// written only for a list whose model has an unsure band (`hasUnsureBand`:
    /// chi-square), where it is what `--explain` calls `unsure`, so a reader of the JSON
    /// need not know where the band starts; a sum list has no band and no field.
    mutating func appendJSONFields(score: Double, isUnsure: Bool, hasUnsureBand: Bool, hits: ArraySlice<RuleHit>,
                                   offset: Int, to out: inout [UInt8]) {
        if hasUnsureBand { out.append(contentsOf: (isUnsure ? "\"unsure\":true," : "\"unsure\":false,").utf8) }
        out.append(contentsOf: "\"score\":\(precision.text(score)),\"threshold\":\(thresholdText),\"rules\":[".utf8)
        var first = true
        for hit in hits {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            if jsonFields[hit.rule] == nil {
                var fields = Array("{\"rule\":\(hit.rule),\"pattern\":".utf8)
                rules[hit.rule].pattern.withUnsafeBufferPointer { Rendering.appendJSONString($0, to: &fields) }
                fields.append(contentsOf: ",\"weight\":\(precision.text(hit.weight)),".utf8)
                jsonFields[hit.rule] = fields
            }
            out.append(contentsOf: jsonFields[hit.rule]!)
            Rendering.append(Self.jsonStart, to: &out)
            Rendering.appendDecimal(offset + hit.start, to: &out)
            Rendering.append(Self.jsonEnd, to: &out)
            Rendering.appendDecimal(offset + hit.end, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static let jsonStart: StaticString = "\"start\":"
    private static let jsonEnd: StaticString = ",\"end\":"

    /// Rule `rule`'s weight with its sign, as `--explain` prints it.
    private mutating func explainWeight(_ rule: Int) -> String {
        if let text = explainWeights[rule] { return text }
        let w = precision.text(rules[rule].weight)
        let text = w.hasPrefix("-") ? w : "+" + w
        explainWeights[rule] = text
        return text
    }
}
