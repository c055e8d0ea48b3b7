// Graphviz DOT export of an event machine's state graph: one node per state, one edge
// per valid (state, event), labelled by the event; the initial state is marked by an
// arrow from an unlabelled point node, as state diagrams draw it.
import AutomatonCore

extension StateMachine.Definition {
    /// The state graph in Graphviz DOT: one node per state (in `allCases` order), an
    /// arrow from a point node `__start` to the initial state, and one edge per table
    /// entry labelled with its event. Pass `current` to fill that state's node.
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
    /// - Complexity: O(|states| × |events|).
    public func dot(name: String = "StateMachine", current: State? = nil) -> String {
        var out = "digraph \(dotQuoted(name)) {\n"
        out += "  rankdir=LR;\n"
        out += "  node [shape=ellipse];\n"
        out += "  \"__start\" [shape=point, label=\"\"];\n"
        out += "  \"__start\" -> \(dotQuoted("\(initialState)"));\n"
        for state in states {
            if let current, current == state {
                out += "  \(dotQuoted("\(state)")) [style=filled, fillcolor=lightgrey];\n"
            } else {
                out += "  \(dotQuoted("\(state)"));\n"
            }
        }
        for edge in edges {
            out += "  \(dotQuoted("\(edge.from)")) -> \(dotQuoted("\(edge.to)")) [label=\(dotQuoted("\(edge.event)"))];\n"
        }
        out += "}\n"
        return out
    }
}

extension StateMachine {
    /// The state graph in Graphviz DOT with the current state filled; see
    /// ``Definition/dot(name:current:)``.
    ///
    /// - Complexity: O(|states| × |events|).
    public func dot(name: String = "StateMachine") -> String {
        definition.dot(name: name, current: state)
    }
}

/// `text` as a DOT quoted ID (the escaping DenseDFA's DOT export uses).
private func dotQuoted(_ text: String) -> String { DenseDFA.dotQuoted(text) }
