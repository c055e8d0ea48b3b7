// A statechart drawn in Graphviz DOT: a compound state is a cluster holding its
// children, a parallel state a cluster whose regions are dashed clusters side by side
// (UML draws regions apart with dashed lines); edges leave and reach a cluster through
// an invisible point inside it (`ltail`/`lhead` with `compound=true`).

extension Statechart.Definition {
    /// The chart in Graphviz DOT, states in document order.
    ///
    /// ```swift
    /// print(chart.dot)   // dot -Tsvg
    /// ```
    ///
    /// - Complexity: O(states + transitions × targets).
    public var dot: String {
        let t = table
        func name(_ s: Int) -> String { escaped(String(describing: state(s))) }
        func node(_ s: Int) -> String { t.isAtomic(s) || t.isHistory(s) ? "s\(s)" : "a\(s)" }
        var out = "digraph statechart {\n  compound=true;\n  node [shape=box, style=rounded];\n"
        func draw(_ s: Int, _ indent: String, inParallel: Bool) {
            switch t.kind[s] {
            case .atomic:
                out += "\(indent)s\(s) [label=\"\(name(s))\"];\n"
            case .final:
                out += "\(indent)s\(s) [label=\"\(name(s))\", peripheries=2];\n"
            case .history, .deepHistory:
                out += "\(indent)s\(s) [label=\"\(t.kind[s] == .deepHistory ? "H*" : "H")\", shape=circle];\n"
            case .compound, .parallel:
                out += "\(indent)subgraph cluster_\(s) {\n"
                out += "\(indent)  label=\"\(name(s))\(t.kind[s] == .parallel ? " (parallel)" : "")\";"
                out += inParallel ? " style=dashed;\n" : " style=rounded;\n"
                out += "\(indent)  a\(s) [shape=point, style=invis];\n"
                for c in t.children[s] { draw(c, indent + "  ", inParallel: t.kind[s] == .parallel) }
                out += "\(indent)}\n"
            }
        }
        for c in t.children[0] { draw(c, "  ", inParallel: false) }
        if let first = t.initial[0].first {
            out += "  start [shape=point];\n  start -> \(node(first))\(t.isAtomic(first) ? "" : " [lhead=cluster_\(first)]");\n"
        }
        for tr in t.allTransitions {
            var label: String
            if tr.trigger == -3 { label = "*" }
            else if tr.trigger < 0 { label = "" }
            else if tr.isDone { label = "done.state.\(name(tr.trigger))" }
            else { label = String(describing: definitionEvent(tr.trigger)) }
            if tr.guardIndex >= 0 { label += " [guard]" }
            let targets = tr.targets.isEmpty ? [tr.source] : tr.targets
            for target in targets {
                var attributes = ["label=\"\(escaped(label))\""]
                if !t.isAtomic(tr.source), !t.isHistory(tr.source) { attributes.append("ltail=cluster_\(tr.source)") }
                if !t.isAtomic(target), !t.isHistory(target), target != tr.source || !tr.targets.isEmpty {
                    attributes.append("lhead=cluster_\(target)")
                }
                if tr.targets.isEmpty { attributes.append("style=dotted") }
                out += "  \(node(tr.source)) -> \(node(target)) [\(attributes.joined(separator: ", "))];\n"
            }
        }
        return out + "}\n"
    }

    /// `text` with its quotes escaped for a DOT string (no Foundation in this module).
    private func escaped(_ text: String) -> String {
        var result = ""
        for ch in text { if ch == "\"" || ch == "\\" { result.append("\\") }; result.append(ch) }
        return result
    }

    private func definitionEvent(_ id: Int) -> Event {
        eventIndex.first { $0.value == id }!.key
    }
}
