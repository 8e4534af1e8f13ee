/// What a fan-out strategy does, as the simulation models it: how it issues a stage's calls, how it
/// waits for them, what happens to the siblings when one fails, and whether it hedges slow calls.
///
/// The login flow has two stages: profile, tickets and favourites; then the movies those reference
/// (one batched call, or one call per movie, as the scenario says). A strategy is the combination of
/// the four choices below; the suite's variants are the combinations the article, the platform and
/// we propose, and a user registers another combination the same way.
///
/// **Contract** (`FanOutContract`, checked on every item, sim and live): every call sent completes
/// exactly once and every flow finishes exactly once. A shape is data the harness interprets, so
/// the check guards the model and the live primitives rather than a user's code.
public struct FanOutShape: Sendable, Hashable {
    /// How a stage's calls are issued.
    public enum Issue: String, Sendable, Hashable, CaseIterable {
        /// One after another, each started from the previous one's completion (chained handlers).
        case sequential
        /// All of a stage's calls at once.
        case concurrent
    }

    /// How the code waits for a stage's calls.
    public enum Join: String, Sendable, Hashable, CaseIterable {
        /// A completion handler or `DispatchGroup.notify` block runs on a worker when the last one
        /// finishes: nothing blocks.
        case callback
        /// `DispatchGroup.wait()` on a background worker: that thread is blocked until the stage ends.
        case waitOnWorker = "wait-on-worker"
        /// `DispatchGroup.wait()` on the main thread: main is blocked until the stage ends, and the
        /// frames due meanwhile are missed. The anti-pattern.
        case waitOnMain = "wait-on-main"
        /// One synchronous `Operation` per call on an `OperationQueue` (it blocks its thread on the
        /// request, as a `BlockOperation` around a semaphore does), the next stage an operation
        /// depending on them.
        case blockingOperations = "blocking-operations"
        /// Structured concurrency: the task suspends; no thread is held while a call is in flight.
        case suspend
    }

    /// What happens to a stage's other calls when one fails.
    public enum OnFailure: String, Sendable, Hashable, CaseIterable {
        /// Nothing: every call runs to its end, and the failure is seen when the last one finishes
        /// (`DispatchGroup`, `Operation` dependencies: neither cancels anything).
        case runToCompletion = "run-to-completion"
        /// Children are awaited in declaration order (`try await (a, b, c)` of `async let`): the failure is
        /// seen once every call before it in order has finished, then the rest are cancelled. A stage
        /// of a dynamic size (one call per movie) cannot be `async let`: it is a task group, `cancelOnFirst`.
        case cancelInOrder = "cancel-in-order"
        /// The first failure to arrive cancels the others (`for try await` over a `TaskGroup`).
        case cancelOnFirst = "cancel-on-first"
        /// The first failure to arrive is seen at once, but nothing is cancelled: the other calls
        /// run to their end unobserved (Signal's `Promise.when(fulfilled:)`: promises cannot be cancelled).
        case failFast = "fail-fast"
    }

    /// How the calls of a stage are issued.
    public var issue: Issue
    /// How the flow waits for a stage.
    public var join: Join
    /// What a failed call does to the rest.
    public var onFailure: OnFailure
    /// Hedged requests: a call still running at its service's 95th percentile gets a second copy;
    /// the first success wins and the other is cancelled.
    public var hedged: Bool

    /// A shape; `hedged` defaults to false.
    public init(issue: Issue, join: Join, onFailure: OnFailure, hedged: Bool = false) {
        self.issue = issue
        self.join = join
        self.onFailure = onFailure
        self.hedged = hedged
    }

    /// One line for `--list` and the JSON.
    public var summary: String {
        "\(issue.rawValue), \(join.rawValue), \(onFailure.rawValue)\(hedged ? ", hedged" : "")"
    }
}
