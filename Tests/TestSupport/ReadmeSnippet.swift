import Foundation

/// Keeps the README's Swift examples identical to code that a test compiles and runs:
/// a test marks a region of its own source with two marker lines, and compares it with
/// the first ```swift block under a README heading (after the block's import lines).
public enum ReadmeSnippet {
    /// The lines strictly between the lines equal (after trimming) to `begin` and
    /// `end` in the source file at `path`, without their common indentation; nil if a
    /// marker is missing.
    public static func markedRegion(inFile path: String, begin: String, end: String) -> [String]? {
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let lines = source.components(separatedBy: "\n")
        guard let b = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == begin }),
              let e = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == end }), b < e
        else { return nil }
        let region = Array(lines[(b + 1)..<e])
        let indent = region.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return region.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(indent)) }
    }

    /// The lines of the first ```swift block after the line `heading` in `file` (a path
    /// from the repository root: README.md, or a DocC article) and before the next
    /// heading of the same or a higher level; nil if there is none.
    public static func swiftBlock(under heading: String, in file: String = "README.md") -> [String]? {
        let url = SharedCorpora.repositoryRoot.appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let lines = text.components(separatedBy: "\n")
        guard let h = lines.firstIndex(of: heading) else { return nil }
        let level = heading.prefix(while: { $0 == "#" }).count
        let next = lines[(h + 1)...].firstIndex { line in
            let hashes = line.prefix(while: { $0 == "#" }).count
            return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
        } ?? lines.count
        guard let open = lines[h..<next].firstIndex(of: "```swift"),
              let close = lines[(open + 1)...].firstIndex(of: "```") else { return nil }
        return Array(lines[(open + 1)..<close])
    }

    /// The block under `heading` with its leading `import …` lines and the blank line
    /// after them removed.
    public static func swiftBlockBody(under heading: String, in file: String = "README.md") -> (imports: [String], body: [String])? {
        guard let block = swiftBlock(under: heading, in: file) else { return nil }
        let imports = block.prefix { $0.hasPrefix("import ") }
        var body = block.dropFirst(imports.count)
        if body.first == "" { body = body.dropFirst() }
        return (Array(imports), Array(body))
    }
}
