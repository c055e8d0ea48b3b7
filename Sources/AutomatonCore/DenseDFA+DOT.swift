// Graphviz DOT export of a dense DFA, for looking at small automata.
//
// Source: the DOT language as specified by Graphviz (https://graphviz.org/doc/info/lang.html).
// Known limits: meant for automata of tens of states; a large automaton gives a
// correct but unreadable graph.

extension DenseDFA {
    /// The automaton as a Graphviz `digraph`.
    ///
    /// - Every live state is a node `sN` (N its index); match states are drawn as
    ///   `doublecircle` and labelled with their pattern ids, highest priority first.
    /// - The unanchored text-start state is marked by an arrow from an invisible point
    ///   node `start`. Every other start state that differs from it gets its own point
    ///   node and a dashed arrow labelled with the contexts that select it
    ///   (for example `lineStart anchored`); start contexts whose start state is the
    ///   dead state are listed in a comment.
    /// - Transitions are grouped per (source, target); the label lists the merged byte
    ///   ranges (`0-9, a-z`), printable ASCII as itself, other bytes as `\xHH`, and
    ///   `EOI` for end-of-input.
    /// - The dead state and every edge into it are omitted: any byte not shown leads
    ///   to the dead state.
    ///
    /// ```swift
    /// print(dfa.minimized().dot(name: "word"))   // pipe into `dot -Tsvg`
    /// ```
    ///
    /// - Complexity: O(states × 256) time and the output's size in memory; no search
    ///   cost (this is an export, not a search).
    public func dot(name: String = "dfa") -> String {
        var out = "digraph \(Self.dotQuoted(name)) {\n"
        out += "  rankdir=LR;\n"
        out += "  node [shape=circle];\n"

        // Start states.
        let primary = startState(.textStart, anchored: false)
        var startGroups: [(state: StateID, names: [String])] = []
        var deadStarts: [String] = []
        for ctx in StartContext.allCases {
            for anchored in [false, true] {
                let s = startState(ctx, anchored: anchored)
                let label = "\(ctx)" + (anchored ? " anchored" : " unanchored")
                if s == 0 { deadStarts.append(label); continue }
                if let g = startGroups.firstIndex(where: { $0.state == s }) {
                    startGroups[g].names.append(label)
                } else {
                    startGroups.append((s, [label]))
                }
            }
        }
        if !deadStarts.isEmpty {
            out += "  // start states that are the dead state: \(deadStarts.joined(separator: ", "))\n"
        }
        var otherStart = 0
        for group in startGroups {
            if group.state == primary {
                out += "  start [shape=point, style=invis];\n"
                out += "  start -> s\(index(of: group.state));\n"
            } else {
                otherStart += 1
                out += "  start\(otherStart) [shape=point, style=invis];\n"
                out += "  start\(otherStart) -> s\(index(of: group.state)) [style=dashed, label=\(Self.dotQuotedLines(group.names))];\n"
            }
        }

        // Nodes.
        for i in 1..<max(stateCount, 1) {
            let s = id(ofIndex: i)
            if isMatchState(s) {
                let list = patterns(of: s).map { String($0) }.joined(separator: ",")
                out += "  s\(i) [shape=doublecircle, label=\(Self.dotQuoted("\(i)", "[\(list)]"))];\n"
            } else {
                out += "  s\(i) [label=\"\(i)\"];\n"
            }
        }

        // Edges, grouped per (source, target).
        let k = byteClasses.alphabetLength
        for i in 1..<max(stateCount, 1) {
            let s = id(ofIndex: i)
            var targets: [StateID] = []
            for c in 0..<k {
                let t = next(s, class: c)
                if t != 0, !targets.contains(t) { targets.append(t) }
            }
            // One pass over the bytes: each maximal run of bytes with the same
            // target becomes one range in that target's label.
            var parts = [[String]](repeating: [], count: targets.count)
            var byte = 0
            while byte < 256 {
                let t = next(s, UInt8(byte))
                var last = byte
                while last < 255, next(s, UInt8(last + 1)) == t { last += 1 }
                if t != 0, let slot = targets.firstIndex(of: t) {
                    let low = Self.dotByte(UInt8(byte))
                    parts[slot].append(last == byte ? low : "\(low)-\(Self.dotByte(UInt8(last)))")
                }
                byte = last + 1
            }
            for (slot, t) in targets.enumerated() {
                if nextEOI(s) == t { parts[slot].append("EOI") }
                out += "  s\(i) -> s\(index(of: t)) [label=\(Self.dotQuoted(parts[slot].joined(separator: ", ")))];\n"
            }
        }
        out += "}\n"
        return out
    }

    /// A byte as it appears in an edge label, before DOT quoting: printable ASCII as
    /// itself, everything else (space included) as `\xHH`.
    static func dotByte(_ byte: UInt8) -> String {
        if byte > 0x20, byte < 0x7F { return String(UnicodeScalar(byte)) }
        let hex = Array("0123456789ABCDEF")
        return "\\x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
    }

    /// `lines` as one DOT quoted string: quotes and backslashes escaped (so `\x00`
    /// shows as such), lines joined by DOT's `\n` line break.
    package static func dotQuoted(_ lines: String...) -> String { dotQuotedLines(lines) }

    package static func dotQuotedLines(_ lines: [String]) -> String {
        var out = "\""
        for (n, line) in lines.enumerated() {
            if n > 0 { out += "\\n" }
            for ch in line {
                switch ch {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out.append(ch)
                }
            }
        }
        return out + "\""
    }
}
