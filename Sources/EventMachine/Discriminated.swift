// The one requirement on a machine's states and events: a case discriminator that
// rules can name. States and events may carry data (`.articles([Article])`,
// `.loaded([Article])`); rules and the transition table speak of their cases only,
// and the data travels with the values into hooks, guards and observers.

/// A state or event type whose values fall into a fixed set of cases.
///
/// Plain enums need nothing but the conformance: their cases are their values.
///
/// ```swift
/// enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
/// ```
///
/// An enum with associated values names its cases in a small nested enum, which the
/// rules of a ``StateMachine/Definition`` use:
///
/// ```swift
/// enum Screen: Discriminated {
///     case empty, loading, articles([Article]), failed(String)
///
///     enum Case: CaseIterable, Hashable, Sendable { case empty, loading, articles, failed }
///     var `case`: Case {
///         switch self {
///         case .empty: .empty
///         case .loading: .loading
///         case .articles: .articles
///         case .failed: .failed
///         }
///     }
/// }
/// ```
///
/// ``StateMachine/canEnter(_:)`` answers exactly what `fire` would do — rule and guards —
/// for the event cases it has a value of: ``valuesWithoutData``. A `CaseIterable` type
/// gets them for free; an enum with data lists its cases without data in one line:
///
/// ```swift
/// static let valuesWithoutData: [GateEvent] = [.push]
/// ```
///
/// Every value's `case` must be one of `Case.allCases`; a definition reports a case it
/// does not know as a ``StateMachine/DefinitionError``, a machine as a
/// ``StateMachine/TransitionError`` — never a trap.
///
/// - Complexity: `case` should be O(1): the machine reads it once or twice per event.
public protocol Discriminated: Sendable {
    /// The cases rules name: one per kind of value, without the data.
    associatedtype Case: CaseIterable & Hashable & Sendable
    /// The case of this value.
    var `case`: Case { get }
    /// The values of the cases that carry no data (at most one per case), so that
    /// ``StateMachine/canEnter(_:)`` can ask their rules and guards as `fire` would.
    /// `allCases` for a `CaseIterable` type; empty by default otherwise.
    static var valuesWithoutData: [Self] { get }
}

extension Discriminated {
    /// None known: list them to make ``StateMachine/canEnter(_:)`` exact for those cases.
    public static var valuesWithoutData: [Self] { [] }

    /// The value of `case` when it carries no data (one of ``valuesWithoutData``).
    ///
    /// - Complexity: O(|valuesWithoutData|).
    static func value(of case: Case) -> Self? { valuesWithoutData.first { $0.case == `case` } }
}

extension Discriminated where Self: CaseIterable {
    /// Every value: no case carries data.
    public static var valuesWithoutData: [Self] { Array(allCases) }
}

extension Discriminated where Self: CaseIterable & Hashable {
    /// A plain enum is its own case.
    public var `case`: Self { self }
}
