// Graphviz DOT export of an event machine's state graph: one node per leaf state, one
// cluster per parent state (its children inside), one edge per table edge labelled by
// its event; the initial state is marked by an arrow from an unlabelled point node, as
// state diagrams draw it. An edge from or to a parent is drawn from or to its initial
// leaf and clipped at the cluster's border (Graphviz's `compound`, `ltail`, `lhead`).
import AutomatonCore

extension StateMachine.Definition {
    /// The state graph in Graphviz DOT: one node per leaf state (in `allCases` order),
    /// a `cluster_…` subgraph per parent, an arrow from a point node `__start` to the
    /// initial state, and one edge per ``edges`` entry labelled with its event (an
    /// internal one as "event (internal)"). Pass `current` to fill that state's node.
    ///
    /// ```swift
    /// print(turnstile.dot(name: "turnstile"))
    /// // digraph "turnstile" {
    /// //   rankdir=LR;
    /// //   node [shape=ellipse];
    /// //   "__start" [shape=point, label=""];
    /// //   "__start" -> "locked";
    /// //   "locked";
    /// //   "unlocked";
    /// //   "locked" -> "unlocked" [label="coin"];
    /// //   ...
    /// // }
    /// ```
    ///
    /// - Complexity: O(|states| × |events| × destinations).
    public func dot(name: String = "StateMachine", current: State.Case? = nil) -> String {
        let nested = parentOf.contains { $0 != -1 }
        var out = "digraph \(dotQuoted(name)) {\n"
        out += "  rankdir=LR;\n"
        if nested { out += "  compound=true;\n" }
        out += "  node [shape=ellipse];\n"
        out += "  \"__start\" [shape=point, label=\"\"];\n"
        out += "  \"__start\" -> \(dotQuoted("\(initialState.case)"));\n"
        var children = [[Int]](repeating: [], count: states.count)
        for s in states.indices where parentOf[s] != -1 { children[parentOf[s]].append(s) }
        func draw(_ s: Int, indent: String) {
            if initialChild[s] != nil {
                out += "\(indent)subgraph \(dotQuoted("cluster_\(states[s])")) {\n"
                out += "\(indent)  label=\(dotQuoted("\(states[s])"));\n"
                out += "\(indent)  style=rounded;\n"
                for c in children[s] { draw(c, indent: indent + "  ") }
                out += "\(indent)}\n"
            } else if let current, current == states[s] {
                out += "\(indent)\(dotQuoted("\(states[s])")) [style=filled, fillcolor=lightgrey];\n"
            } else {
                out += "\(indent)\(dotQuoted("\(states[s])"));\n"
            }
        }
        for s in states.indices where parentOf[s] == -1 { draw(s, indent: "  ") }
        for edge in edges {
            var label = "\(edge.event)\(edge.isInternal ? " (internal)" : "")"
            for delay in delays where delay.event.case == edge.event && isIn(delay.state, edge.from) {
                label += " after \(delay.duration)" + (delay.state == edge.from ? "" : " in \(delay.state)")
            }
            var attributes = ["label=\(dotQuoted(label))"]
            if label != "\(edge.event)\(edge.isInternal ? " (internal)" : "")" { attributes.append("style=dashed") }
            let (from, isFromParent) = drawnLeaf(edge.from)
            let (to, isToParent) = drawnLeaf(edge.to)
            if isFromParent { attributes.append("ltail=\(dotQuoted("cluster_\(edge.from)"))") }
            if isToParent { attributes.append("lhead=\(dotQuoted("cluster_\(edge.to)"))") }
            out += "  \(dotQuoted("\(from)")) -> \(dotQuoted("\(to)")) [\(attributes.joined(separator: ", "))];\n"
        }
        out += "}\n"
        return out
    }

    /// The leaf a DOT edge is drawn at for `state` (a parent's initial leaf), and
    /// whether `state` is a parent.
    /// `true` when `state` is `ancestor` or nested in it.
    private func isIn(_ state: State.Case, _ ancestor: State.Case) -> Bool {
        guard let s = position(of: state), let a = position(of: ancestor) else { return false }
        return table.contains(a, s)
    }

    private func drawnLeaf(_ state: State.Case) -> (State.Case, Bool) {
        guard var p = position(of: state), initialChild[p] != nil else { return (state, false) }
        while let child = initialChild[p], let c = position(of: child.case) { p = c }
        return (states[p], true)
    }
}

extension StateMachine {
    /// The state graph in Graphviz DOT with the current state filled; see
    /// ``Definition/dot(name:current:)``.
    ///
    /// - Complexity: O(|states| × |events| × destinations).
    public func dot(name: String = "StateMachine") -> String {
        definition.dot(name: name, current: state.case)
    }
}

/// `text` as a DOT quoted ID (the escaping DenseDFA's DOT export uses).
internal func dotQuoted(_ text: String) -> String { DenseDFA.dotQuoted(text) }
