// A value's data as its case's payload type, for rules that compute a destination from
// the event's data (issue 47: every such rule began with `guard case .loaded(let
// articles) = event else { return nil }`). The case's constructor names the payload
// type — `NewsEvent.loaded` is a `([Article]) -> NewsEvent` — and reflection reads the
// value's data, as swift-case-paths did before macros: the table has already routed the
// event by its case, so the data is that case's.
//
// Cost: a `Mirror` of the value per call (an allocation), paid only by rules written in
// this form; plain `fire` and rules that unpack the event themselves are unchanged.

extension Discriminated {
    /// This value's data when it has the type `embed` takes, else `nil`: the associated
    /// values of its case (a tuple when there are several).
    ///
    /// ```swift
    /// ScreenEvent.loaded(articles).payload(as: ScreenEvent.loaded)   // articles
    /// GateEvent.coin(cents: 25).payload(as: GateEvent.coin)          // 25
    /// ```
    public func payload<Payload>(as embed: (Payload) -> Self) -> Payload? {
        payload(Payload.self)
    }

    /// This value's data as a `Payload`, else `nil`; see ``payload(as:)``.
    func payload<Payload>(_: Payload.Type) -> Payload? {
        guard let data = Mirror(reflecting: self).children.first?.value else { return nil }
        if let payload = data as? Payload { return payload }
        // One labelled associated value (`coin(cents: Int)`) reflects as a one-element tuple.
        let inner = Mirror(reflecting: data)
        if inner.displayStyle == .tuple, inner.children.count == 1, let payload = inner.children.first?.value as? Payload {
            return payload
        }
        return nil
    }
}

extension StateMachine.Rule {
    /// `event` leads from each of `sources` to the state `destination` computes from the
    /// current state and the event's data, already unpacked: `as` is the case's
    /// constructor, which names the data's type.
    ///
    /// ```swift
    /// .on(.loaded, as: ScreenEvent.loaded, from: .loading, to: [.empty, .articles]) { _, articles in
    ///     articles.isEmpty ? .empty : .articles(articles)
    /// }
    /// ```
    ///
    /// - Complexity: a reflection of the event per call (an allocation) on top of
    ///   ``on(_:from:to:_:)-(_,[State.Case],_,_)``.
    public static func on<Payload>(
        _ event: Event.Case, as embed: (Payload) -> Event, from sources: [State.Case], to cases: [State.Case],
        _ destination: @escaping @Sendable (_ state: State, _ payload: Payload) -> State?
    ) -> Self {
        on(event, from: sources, to: cases) { state, value in
            value.payload(Payload.self).flatMap { destination(state, $0) }
        }
    }

    /// ``on(_:as:from:to:_:)-(_,_,[State.Case],_,_)`` from one source.
    public static func on<Payload>(
        _ event: Event.Case, as embed: (Payload) -> Event, from source: State.Case, to cases: [State.Case],
        _ destination: @escaping @Sendable (_ state: State, _ payload: Payload) -> State?
    ) -> Self {
        on(event, as: embed, from: [source], to: cases, destination)
    }

    /// A stay-or-move rule (``on(_:from:stayOrMoveTo:_:)``) whose `decide` is given the
    /// event's data, already unpacked.
    ///
    /// ```swift
    /// .on(.progress, as: DownloadEvent.progress, from: .downloading, stayOrMoveTo: [.done]) { _, percent in
    ///     percent < 100 ? .stay(.downloading(percent: percent)) : .move(.done)
    /// }
    /// ```
    public static func on<Payload>(
        _ event: Event.Case, as embed: (Payload) -> Event, from sources: [State.Case], stayOrMoveTo cases: [State.Case],
        _ decide: @escaping @Sendable (_ state: State, _ payload: Payload) -> StateMachine.Next?
    ) -> Self {
        on(event, from: sources, stayOrMoveTo: cases) { state, value in
            value.payload(Payload.self).flatMap { decide(state, $0) }
        }
    }
}
