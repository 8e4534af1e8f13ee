/// One contention operation run by a single thread with nobody else wanting the lock: what a lock
/// strategy costs per operation through the atomic wrappers when it is uncontended.
///
/// Public because the micro-benchmarks package under `Benchmarks/` is a separate package and cannot
/// see `package` symbols. The operation loop runs here, specialised for the strategy exactly as in
/// the contention runner (through `ContentionTargetVisitor`), so `run(_:)` costs one indirect call
/// per batch and otherwise only the wrapper and the lock; a per-operation call across the module
/// boundary would add an indirect call as large as the lock-free floor itself.
public struct UncontendedLoop {
    public let variant: LockVariant
    public let operation: ContentionOperation
    let target: any ContentionTarget
    let body: (Int, inout WorkerState) -> Void
    var state: WorkerState

    /// A fresh shared object for `variant` running `operation`, or nil when the pair is
    /// unsupported (see `LockVariant.supports`). Set `PATTERNBENCH_INJECT_REGRESSION` to slow the
    /// variants it names, as in the contention runs.
    public init?(variant: LockVariant, operation: ContentionOperation, seed: UInt64 = 1) {
        guard let made = variant.withTarget(operation, Capture()) else { return nil }
        self.variant = variant
        self.operation = operation
        (target, body) = made
        state = WorkerState(seed: seed, thread: 0, csIterations: 0, gapIterations: 0)
    }

    /// Runs `count` operations and returns this thread's running tally (keep it alive with a
    /// black hole so the work cannot be optimised away).
    @discardableResult
    public mutating func run(_ count: Int) -> Int64 {
        body(count, &state)
        return state.tally
    }

    /// Whether the shared object agrees with the tally: no operation was lost.
    public var isConsistent: Bool { target.observedTotal() == state.tally }

    struct Capture: ContentionTargetVisitor {
        // The closure is formed where `Target` is concrete, so its call to `perform` is specialised.
        func visit<Target: ContentionTarget>(_ target: Target) -> (any ContentionTarget, (Int, inout WorkerState) -> Void) {
            (target, { count, state in target.perform(count, &state) })
        }
    }
}
