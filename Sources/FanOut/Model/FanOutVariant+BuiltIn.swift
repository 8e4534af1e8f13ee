import Measurement

extension FanOutVariant {
    /// The article's flow done the slow way: each call started from the previous one's handler.
    public static let sequential = FanOutVariant(
        info: VariantInfo(name: "sequential", origin: .article, summary: "chained completion handlers, one call after another"),
        shape: FanOutShape(issue: .sequential, join: .callback, onFailure: .runToCompletion),
        primitive: .chainedHandlers
    )
    /// The article's recommendation: enter/leave per call, `notify` continues.
    public static let groupNotify = FanOutVariant(
        info: VariantInfo(name: "group-notify", origin: .article, summary: "DispatchGroup, notify(queue:) continues; no cancellation"),
        shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion),
        primitive: .groupNotify
    )
    /// The article's blocking form, used correctly: `wait()` on a background worker.
    public static let groupWaitWorker = FanOutVariant(
        info: VariantInfo(
            name: "group-wait-worker",
            origin: .article,
            summary: "DispatchGroup.wait() on a background worker (a thread blocked per flow)"
        ),
        shape: FanOutShape(issue: .concurrent, join: .waitOnWorker, onFailure: .runToCompletion),
        primitive: .groupWaitWorker
    )
    /// The anti-pattern the article warns about: `wait()` on the main thread.
    public static let groupWaitMain = FanOutVariant(
        info: VariantInfo(
            name: "group-wait-main",
            origin: .article,
            summary: "ANTI-PATTERN: DispatchGroup.wait() on the main thread (frames missed)"
        ),
        shape: FanOutShape(issue: .concurrent, join: .waitOnMain, onFailure: .runToCompletion),
        primitive: .groupWaitMain
    )
    /// The article's "next step": synchronous operations, the movies operation depending on the three.
    public static let operationDependencies = FanOutVariant(
        info: VariantInfo(
            name: "operation-dependencies",
            origin: .article,
            summary: "OperationQueue, a blocking operation per call, dependencies for the next stage"
        ),
        shape: FanOutShape(issue: .concurrent, join: .blockingOperations, onFailure: .runToCompletion),
        primitive: .operations
    )
    /// Structured concurrency, static fan-out.
    public static let asyncLet = FanOutVariant(
        info: VariantInfo(
            name: "async-let",
            origin: .platform,
            summary: "async let, awaited as a tuple (in order); per-movie stage a task group"
        ),
        shape: FanOutShape(issue: .concurrent, join: .suspend, onFailure: .cancelInOrder),
        primitive: .asyncLet
    )
    /// Structured concurrency, dynamic fan-out.
    public static let taskGroup = FanOutVariant(
        info: VariantInfo(
            name: "task-group",
            origin: .platform,
            summary: "withThrowingTaskGroup, for try await: the first failure cancels the rest"
        ),
        shape: FanOutShape(issue: .concurrent, join: .suspend, onFailure: .cancelOnFirst),
        primitive: .taskGroup
    )
    /// Signal's fan-out: `Promise.when(fulfilled:)` over its own promises (SignalServiceKit, cited in
    /// docs/signal-fidelity.md): rejects at the first failure, and nothing is cancelled.
    public static let signalWhenFulfilled = FanOutVariant(
        info: VariantInfo(
            name: "signal-when-fulfilled",
            origin: .signal,
            summary: "Promise.when(fulfilled:): fails fast at the first rejection, cancels nothing"
        ),
        shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .failFast),
        primitive: .whenFulfilled
    )
    /// Ours: a task group that hedges a call still running at its service's p95.
    public static let hedged = FanOutVariant(
        info: VariantInfo(
            name: "hedged",
            origin: .ours,
            summary: "task group; a call still running at its p95 gets a second copy, first success wins"
        ),
        shape: FanOutShape(issue: .concurrent, join: .suspend, onFailure: .cancelOnFirst, hedged: true),
        primitive: .taskGroup
    )

    /// The suite's own variants, in `--list` order.
    public static let builtIn: [FanOutVariant] = [
        sequential, groupNotify, groupWaitWorker, groupWaitMain, operationDependencies, asyncLet, taskGroup, signalWhenFulfilled, hedged,
    ]
}

extension FanOutVariant {
    /// The rows of live `child-overhead`: a primitive, not a strategy (origin `reference`, never registered).
    static func harness(_ primitive: OverheadPrimitive) -> FanOutVariant {
        FanOutVariant(
            info: VariantInfo(name: primitive.rawValue, origin: .reference, summary: "per-child cost of \(primitive.rawValue)"),
            shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion),
            primitive: primitive == .dispatchGroup ? .groupNotify : .taskGroup
        )
    }
}
