/// grep's `--color` capabilities, from `GREP_COLORS` (`mt=01;31:fn=35:ln=32:se=36`):
/// the SGR parameters of the matched text (`mt`, or `ms` for selected records), the
/// input name (`fn`), the record number (`ln`), the byte offset (`bn`) and the
/// separators (`se`), each written as grep writes it: `ESC[<sgr>m ESC[K` before,
/// `ESC[m ESC[K` after (`ne` leaves out the `ESC[K`s).
///
/// ```swift
/// let colors = GrepColors(environment: "mt=01;32:fn=34")
/// colors.start(colors.fileName)   // ESC[34m ESC[K
/// ```
struct GrepColors: Sendable {
    var match = "01;31"
    var fileName = "35"
    var lineNumber = "32"
    var byteOffset = "32"
    var separator = "36"
    /// `ne`: no erase-to-end-of-line after each sequence.
    var noErase = false

    /// grep's defaults, changed by the capabilities `GREP_COLORS` gives (unknown ones
    /// and malformed entries are ignored, as grep does).
    /// `legacy` is grep's older `GREP_COLOR`, the matched text's colour, which
    /// `GREP_COLORS`'s `mt` overrides.
    init(environment value: String? = ProcessEnvironment.value("GREP_COLORS"), legacy: String? = nil) {
        if let legacy, !legacy.isEmpty { match = legacy }
        guard let value else { return }
        for entry in value.split(separator: ":") {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if parts.count == 1, parts[0] == "ne" { noErase = true; continue }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "mt", "ms": match = parts[1]
            case "fn": fileName = parts[1]
            case "ln": lineNumber = parts[1]
            case "bn": byteOffset = parts[1]
            case "se": separator = parts[1]
            default: continue
            }
        }
    }

    /// The bytes that start text of the capability `sgr`.
    /// An empty capability colours nothing (no sequences at all, as grep).
    func start(_ sgr: String) -> [UInt8] { sgr.isEmpty ? [] : Array("\u{1B}[\(sgr)m\(noErase ? "" : "\u{1B}[K")".utf8) }
    /// The bytes that end text of the capability `sgr`.
    func end(_ sgr: String) -> [UInt8] { sgr.isEmpty ? [] : Array("\u{1B}[m\(noErase ? "" : "\u{1B}[K")".utf8) }
}
