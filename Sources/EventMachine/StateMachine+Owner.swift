// Hooks that are handed their owner instead of capturing it (issue 47). A screen's model
// owns its machine, the machine owns its hooks, and a hook that captured the model
// `[unowned self]` crashed when a transition freed the model — a did-enter hook that
// dismisses its own screen, on an event a state's task sent — and the next hook ran.
// Registered with `owner:`, a hook holds its owner weakly and receives it as an
// argument (SwiftyStateMachine hands its hooks the machine's subject the same way); once
// the owner is gone, the hook is skipped and the guard is not asked. So no hook needs
// `[weak self]` or `[unowned self]`, and freeing the owner from inside a transition is safe.

extension StateMachine {
    /// Adds a guard handed `owner`, which it does not keep alive; once `owner` is gone
    /// the guard is not asked (as if removed). See ``addGuard(for:_:)-(_,_)``.
    ///
    /// ```swift
    /// machine.addGuard(for: .coin, owner: wallet) { wallet, transition in wallet.balance >= 25 }
    /// ```
    @discardableResult
    public func addGuard<Owner: AnyObject & Sendable>(
        for event: Event.Case? = nil, owner: Owner, _ body: @escaping @Sendable (Owner, Transition) -> Bool
    ) -> HookID {
        addGuard(for: event) { [weak owner] (t: Transition) -> Bool in
            guard let owner else { return true }
            return body(owner, t)
        }
    }

    /// Adds a will-exit hook handed `owner`, skipped once `owner` is gone; see ``onWillExit(_:_:)``.
    @discardableResult
    public func onWillExit<Owner: AnyObject & Sendable>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onWillExit(state, Self.owned(by: owner, hook)) }

    /// Adds a will-enter hook handed `owner`, skipped once `owner` is gone; see ``onWillEnter(_:_:)``.
    @discardableResult
    public func onWillEnter<Owner: AnyObject & Sendable>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onWillEnter(state, Self.owned(by: owner, hook)) }

    /// Adds a did-exit hook handed `owner`, skipped once `owner` is gone; see ``onDidExit(_:_:)``.
    @discardableResult
    public func onDidExit<Owner: AnyObject & Sendable>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onDidExit(state, Self.owned(by: owner, hook)) }

    /// Adds a did-enter hook handed `owner`, skipped once `owner` is gone; see ``onDidEnter(_:_:)``.
    ///
    /// ```swift
    /// machine.onDidEnter(.unlocked, owner: display) { display, _ in display.show("Welcome") }
    /// ```
    @discardableResult
    public func onDidEnter<Owner: AnyObject & Sendable>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onDidEnter(state, Self.owned(by: owner, hook)) }

    /// Adds a will-fire hook handed `owner`, skipped once `owner` is gone; see ``onWillFire(_:_:)``.
    @discardableResult
    public func onWillFire<Owner: AnyObject & Sendable>(
        _ event: Event.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onWillFire(event, Self.owned(by: owner, hook)) }

    /// Adds a did-fire hook handed `owner`, skipped once `owner` is gone; see ``onDidFire(_:_:)``.
    @discardableResult
    public func onDidFire<Owner: AnyObject & Sendable>(
        _ event: Event.Case, owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> HookID { onDidFire(event, Self.owned(by: owner, hook)) }

    /// Adds a per-state update handed `owner`, skipped once `owner` is gone; see ``onUpdate(_:_:)-(_,(Double)->Void)``.
    @discardableResult
    public func onUpdate<Owner: AnyObject & Sendable>(
        _ state: State.Case, owner: Owner, _ body: @escaping @Sendable (Owner, _ deltaTime: Double) -> Void
    ) -> HookID {
        onUpdate(state) { [weak owner] (deltaTime: Double) in
            if let owner { body(owner, deltaTime) }
        }
    }

    /// Adds an observer handed `owner`, skipped once `owner` is gone; see ``observe(_:)``.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        owner: Owner, _ observer: @escaping @Sendable (Owner, Transition) -> Void
    ) -> ObserverID { observe(Self.owned(by: owner, observer)) }

    /// `hook`, holding `owner` weakly and skipped once it is gone.
    static func owned<Owner: AnyObject & Sendable>(
        by owner: Owner, _ hook: @escaping @Sendable (Owner, Transition) -> Void
    ) -> Hook {
        { [weak owner] t in if let owner { hook(owner, t) } }
    }
}

extension MainActorStateMachine {
    /// Adds a guard handed `owner`, which it does not keep alive; once `owner` is gone
    /// the guard is not asked (as if removed).
    ///
    /// ```swift
    /// machine.addGuard(for: .checkout, owner: self) { model, _ in model.cart.isEmpty == false }
    /// ```
    @discardableResult
    public func addGuard<Owner: AnyObject>(
        for event: Event.Case? = nil, owner: Owner, _ body: @escaping @MainActor (Owner, Transition) -> Bool
    ) -> HookID {
        addGuard(for: event) { [weak owner] (t: Transition) -> Bool in
            guard let owner else { return true }
            return body(owner, t)
        }
    }

    /// Adds a will-exit hook handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onWillExit<Owner: AnyObject>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onWillExit(state, Self.owned(by: owner, hook)) }

    /// Adds a will-enter hook handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onWillEnter<Owner: AnyObject>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onWillEnter(state, Self.owned(by: owner, hook)) }

    /// Adds a did-exit hook handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onDidExit<Owner: AnyObject>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onDidExit(state, Self.owned(by: owner, hook)) }

    /// Adds a did-enter hook handed `owner` (the screen's model, say), which it does not
    /// keep alive; once `owner` is gone the hook is skipped, so a hook that dismisses its
    /// own screen is safe and no hook captures `self`.
    ///
    /// ```swift
    /// machine.onDidEnter(.unlocked, owner: self) { model, _ in model.message = "Welcome" }
    /// ```
    @discardableResult
    public func onDidEnter<Owner: AnyObject>(
        _ state: State.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onDidEnter(state, Self.owned(by: owner, hook)) }

    /// Adds a will-fire hook handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onWillFire<Owner: AnyObject>(
        _ event: Event.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onWillFire(event, Self.owned(by: owner, hook)) }

    /// Adds a did-fire hook handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onDidFire<Owner: AnyObject>(
        _ event: Event.Case, owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> HookID { onDidFire(event, Self.owned(by: owner, hook)) }

    /// Adds a per-state update handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func onUpdate<Owner: AnyObject>(
        _ state: State.Case, owner: Owner, _ body: @escaping @MainActor (Owner, _ deltaTime: Double) -> Void
    ) -> HookID {
        onUpdate(state) { [weak owner] (deltaTime: Double) in
            if let owner { body(owner, deltaTime) }
        }
    }

    /// Adds an observer handed `owner`, skipped once `owner` is gone.
    @discardableResult
    public func observe<Owner: AnyObject>(
        owner: Owner, _ observer: @escaping @MainActor (Owner, Transition) -> Void
    ) -> ObserverID { observe(Self.owned(by: owner, observer)) }

    /// `hook`, holding `owner` weakly and skipped once it is gone.
    static func owned<Owner: AnyObject>(
        by owner: Owner, _ hook: @escaping @MainActor (Owner, Transition) -> Void
    ) -> Hook {
        { [weak owner] t in if let owner { hook(owner, t) } }
    }
}
