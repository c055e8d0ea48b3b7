import Foundation
import Testing
import TestSupport

/// Line numbers and counts over a mapped file larger than the slice the reader searches
/// at once when it counts records (`RecordReader.countedSliceBytes`, 256 KiB): lines that
/// straddle a slice's end, a line longer than a slice, matches on either side, against
/// GNU grep run for real.
@Suite("grep -n over counted slices equals GNU grep", .enabled(if: GNUGrep.path != nil,
                                                              "GNU grep not found at /usr/bin/grep"))
struct CountedSliceTests {
    /// About 3 MiB: short random lines, one line of 600 KiB in the middle, no final newline.
    static func file() throws -> (URL, UInt64) {
        var rng = SeededGenerator(defaultSeed: 20261202)
        var text: [UInt8] = []
        let words = ["ERROR", "error", "ok", "disk", "retry", "warn", "x"]
        while text.count < 3 << 20 {
            if text.count > 1_400_000, text.count < 1_410_000 {
                text += Array(repeating: UInt8(ascii: "a"), count: 600 << 10) + Array("ERROR\n".utf8)
                continue
            }
            let n = Int.random(in: 0...12, using: &rng)
            text += Array((0..<n).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ").utf8)
            text.append(UInt8(ascii: "\n"))
        }
        text += Array("last ERROR".utf8)
        let dir = try CLI.temporaryDirectory()
        let url = dir.appendingPathComponent("log.txt")
        try Data(text).write(to: url)
        return (url, rng.seed)
    }

    @Test("-n, -c, -n -v, -n -i, -b over slices: GNU grep's output byte for byte",
          arguments: [["-n", "ERROR"], ["-c", "ERROR"], ["-n", "-v", "ERROR"], ["-n", "-i", "error"], ["-b", "ERROR"],
                      ["-n", "-c", "x"]])
    func sameAsGNUGrep(_ args: [String]) throws {
        let (url, seed) = try Self.file()
        let ours = try CLI.run(["grep"] + args + [url.path], environment: ["LC_ALL": "C"])
        let theirs = try ChildProcess.run(GNUGrep.path!, args + [url.path], environment: ["LC_ALL": "C"])
        #expect(ours.status == theirs.status, "seed \(seed)")
        #expect(ours.stdout == theirs.stdout, "seed \(seed), grep \(args.joined(separator: " "))")
    }
}
