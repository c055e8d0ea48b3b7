// Judging a record longer than any buffer: whether it holds a match, fed in pieces
// with the regex DFA's state carried across them (RegexAutomaton+StreamSelection.swift).
// The record reader uses it for records past `maxRecordBytes` when the sink only needs
// to know which records are selected (grep's lines, -c, -l, -q, -v): such a record is
// judged whole in bounded memory instead of on its head.
//
// Every strategy selects the same records as the regex automaton built from the same
// patterns (literals escaped, -i/-w/-x compiled in), so a matcher whose engine is not
// a regex gets one, built on first use. The one rule no DFA can apply is grep's -w over
// Unicode words (SearchStrategy+WholeWords.swift looks a scalar each side of a match):
// no selection then, and the reader falls back to the record's head.

import AutomatonCore
import RegexAutomata

/// Whether a record fed in pieces holds a match of a ``Matcher``: ``feed(_:)`` the
/// pieces in order, then ``finish()``.
///
/// ```swift
/// var selection = try Matcher(patterns: ["winner"], options: .init()).recordSelection()!
/// selection.feed(Array("a long line, a w".utf8)); selection.feed(Array("inner".utf8))
/// selection.finish()   // true
/// ```
public struct RecordSelection {
    enum Scan {
        case never
        case always
        case regex(RegexAutomaton.StreamSelection)
    }
    var scan: Scan

    /// Scans the next piece of the record.
    public mutating func feed(_ piece: UnsafeBufferPointer<UInt8>) {
        guard case .regex(var selection) = scan else { return }
        scan = .never  // no copy of the selection while it is fed (one reference to the lazy cache)
        selection.feed(piece)
        scan = .regex(selection)
    }

    /// Scans the next piece of the record.
    public mutating func feed(_ piece: [UInt8]) { piece.withUnsafeBufferPointer { feed($0) } }

    /// Ends the record: whether it holds a match; nil when the lazy DFA gave up on it
    /// (its cache cleared too often), and the answer is unknown.
    public mutating func finish() -> Bool? {
        switch scan {
        case .never: return false
        case .always: return true
        case .regex(var selection): return selection.finish()
        }
    }
}

extension Matcher {
    /// A selection for one record fed in pieces, or nil when this matcher's rules cannot
    /// be applied by a forward DFA (grep's `-w` over Unicode words). Build one per
    /// record; the regex it runs is built once per matcher call site (keep the result
    /// of ``recordSelectionSource()`` to reuse it).
    public func recordSelection() -> RecordSelection? {
        recordSelectionSource()?.makeSelection()
    }

    /// What ``recordSelection()`` builds each selection from: the regex automaton with
    /// this matcher's answers, built now when the strategy's engine is not a regex.
    public func recordSelectionSource() -> RecordSelectionSource? {
        if patterns.isEmpty { return RecordSelectionSource(kind: .never) }
        if matchesEveryRecord { return RecordSelectionSource(kind: .always) }
        if case .regex(let regex) = engine, !strategy.checksWholeWords {
            return RecordSelectionSource(kind: .regex(regex))
        }
        var options = self.options
        // Selection is the same under every match kind; the regex automaton is leftmost-first.
        options.matchKind = .leftmostFirst
        options.disabledStrategies.formUnion([.singleLiteral, .literalSet, .foldedLiteralSet, .literalAlternation])
        guard let regexMatcher = try? Matcher(bytePatterns: patterns, options: options),
              case .regex(let regex) = regexMatcher.engine, !regexMatcher.strategy.checksWholeWords else { return nil }
        return RecordSelectionSource(kind: .regex(regex))
    }
}

/// The automaton ``RecordSelection``s of one matcher are made from.
public struct RecordSelectionSource: Sendable {
    enum Kind: Sendable {
        case never
        case always
        case regex(RegexAutomaton)
    }
    let kind: Kind

    /// A fresh selection for the next record.
    public func makeSelection() -> RecordSelection {
        switch kind {
        case .never: return RecordSelection(scan: .never)
        case .always: return RecordSelection(scan: .always)
        case .regex(let regex): return RecordSelection(scan: .regex(regex.streamSelection()))
        }
    }
}
