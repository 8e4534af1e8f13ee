import Measurement

/// One fan-out strategy bench-group can run, registered by name in `Suite.fanOuts`: the suite's
/// own variants and a user's go through the same `VariantRegistry.register`.
///
/// In virtual time the strategy is its `shape` (the simulation interprets it on seeded services, a
/// thread pool and a 60 Hz main thread). Live, the same shape runs on the real primitive it names —
/// completion handlers on Dispatch queues, `DispatchGroup.notify`/`wait`, `OperationQueue`
/// dependencies, `async let`, `TaskGroup` — against services that really sleep.
///
/// ```swift
/// try suite.fanOuts.register(
///     FanOutVariant(name: "hedged-notify", origin: .user, summary: "DispatchGroup with hedging",
///                   shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion, hedged: true)))
/// ```
public struct FanOutVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    /// The strategy: its four choices, interpreted by the simulation and, live, run on `primitive`.
    public let shape: FanOutShape
    /// The live primitive the shape runs on (the built-ins name theirs; a user's shape gets the one
    /// its join and failure rule imply).
    public let primitive: LivePrimitive

    /// A strategy from its shape; its live primitive is the one the shape implies.
    public init(name: String, origin: VariantOrigin, summary: String, isDefault: Bool = true, shape: FanOutShape) {
        self.init(
            info: VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault),
            shape: shape,
            primitive: LivePrimitive.implied(by: shape)
        )
    }

    init(info: VariantInfo, shape: FanOutShape, primitive: LivePrimitive) {
        self.info = info
        self.shape = shape
        self.primitive = primitive
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }

    /// The shape's four choices and the live primitive they imply: two variants with the same
    /// parameters are the same strategy.
    public var parameters: [VariantParameter] {
        [
            VariantParameter("issue", String(describing: shape.issue)), VariantParameter("join", String(describing: shape.join)),
            VariantParameter("onFailure", String(describing: shape.onFailure)), VariantParameter("hedged", String(shape.hedged)),
            VariantParameter("live primitive", primitive.rawValue),
        ]
    }
}

/// The real concurrency primitive a live item runs a shape on.
public enum LivePrimitive: String, Sendable, Hashable, CaseIterable {
    /// Completion handlers chained on Dispatch queues, one call after another.
    case chainedHandlers = "chained-handlers"
    /// `DispatchGroup` enter/leave and `notify(queue:)`.
    case groupNotify = "group-notify"
    /// `DispatchGroup.wait()` on a worker.
    case groupWaitWorker = "group-wait-worker"
    /// `DispatchGroup.wait()` on the (stand-in) main thread.
    case groupWaitMain = "group-wait-main"
    /// `OperationQueue` with synchronous operations and dependencies.
    case operations
    /// `async let`, awaited as a tuple.
    case asyncLet = "async-let"
    /// `withThrowingTaskGroup`, `for try await`.
    case taskGroup = "task-group"
    /// A `when(fulfilled:)` combinator over completion handlers: resolves at the last success,
    /// rejects at the first failure, cancels nothing.
    case whenFulfilled = "when-fulfilled"

    static func implied(by shape: FanOutShape) -> LivePrimitive {
        switch shape.join {
        case .callback:
            shape.issue == .sequential ? .chainedHandlers : (shape.onFailure == .failFast ? .whenFulfilled : .groupNotify)
        case .waitOnWorker: .groupWaitWorker
        case .waitOnMain: .groupWaitMain
        case .blockingOperations: .operations
        case .suspend: shape.onFailure == .cancelInOrder ? .asyncLet : .taskGroup
        }
    }
}
