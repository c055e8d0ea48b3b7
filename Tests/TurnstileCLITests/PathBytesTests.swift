import Testing
@testable import TurnstileCLI

/// Names are bytes (PathBytes.swift): the fast paths for ASCII names and for joining a
/// folder and a name must give what the general ones give.
@Suite struct PathBytesTests {
    @Test("joined is folder + \"/\" + name, with no second slash after a trailing one")
    func joined() {
        let names = ["a", "", "café", "\u{F7E9}x", "dir/"]
        for folder in ["/usr/share", "/", "rel", "", "caf\u{F7E9}", "é/"] {
            for name in names {
                let expected = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                #expect(PathBytes.joined(folder, name) == expected, "\(folder) \(name)")
            }
        }
    }

    @Test("a name's bytes come back from its string: ASCII, UTF-8 and bytes that are not UTF-8")
    func roundTrip() {
        let cases: [[UInt8]] = [Array("plain.txt".utf8), Array("café".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF], [], Array("a\u{FFFD}b".utf8)]
        for bytes in cases {
            #expect(PathBytes.bytes(PathBytes.string(bytes)) == bytes, "\(bytes)")
        }
        #expect(PathBytes.string(Array("plain.txt".utf8)) == "plain.txt")
    }
}
