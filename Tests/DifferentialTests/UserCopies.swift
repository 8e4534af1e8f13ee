import Caching
import Readiness
import Simulation
import Throttling

// Copies of built-ins written the way a user writes a variant: from the public API only (no
// `@testable`), to check that a differential run sees a user's faithful copy as identical, and a
// user's almost-copy (one rule changed) as different.

/// `immediate`, as a user would write it.
struct UserImmediate: UpdateThrottler {
    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision { ThrottleDecision(publish: .all) }
}

/// `fixed-rate` (100 ms), as a user would write it: a repeating timer on a fixed grid.
struct UserFixedRate: UpdateThrottler {
    let interval = SimDuration.milliseconds(100)
    var nextFire: SimInstant?
    /// The almost-copy's one change: a timer re-armed from the firing rather than on the grid.
    var drifts = false

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        guard nextFire == nil else { return .none }
        nextFire = context.now + interval
        return ThrottleDecision(timer: .fire(at: nextFire!))
    }

    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        var next = drifts ? context.now + interval : (nextFire ?? context.now) + interval
        if next <= context.now {
            let behind = (context.now - next).nanoseconds / interval.nanoseconds + 1
            next = next + interval * behind
        }
        nextFire = next
        return ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing, timer: .fire(at: next))
    }
}

/// `lru`, as a user would write it: a dictionary and a recency array (O(n), but the same order).
final class UserLRU<Value>: CountBoundedCache {
    let capacity: Int
    private var values: [Int: Value] = [:]
    private var order: [Int] = []  // least recent first
    /// The almost-copy's one change: a hit does not refresh recency (that is FIFO).
    private let refreshes: Bool

    init(capacity: Int, refreshes: Bool = true) {
        self.capacity = capacity
        self.refreshes = refreshes
    }

    var count: Int { values.count }

    func get(_ key: Int) -> Value? {
        guard let v = values[key] else { return nil }
        if refreshes, let i = order.firstIndex(of: key) {
            order.remove(at: i)
            order.append(key)
        }
        return v
    }

    func set(_ key: Int, _ value: Value) {
        guard capacity > 0 else { return }
        if values[key] != nil {
            values[key] = value
            if let i = order.firstIndex(of: key) { order.remove(at: i) }
            order.append(key)
            return
        }
        if values.count >= capacity, !order.isEmpty { values[order.removeFirst()] = nil }
        values[key] = value
        order.append(key)
    }

    func clear() {
        values = [:]
        order = []
    }
}

/// Signal's readiness today (`signal`), as a user would write it from `ReadinessPolicy` and
/// `LaunchSession`'s public part: flags first, will then did FIFO in the ready turn, the polite
/// chain one block a turn 25 ms apart, polite blocks after ready on a plain `async`.
final class UserSignalReadiness: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor, as the protocol promises.
    private let session: LaunchSession
    /// The almost-copy's one change: the polite chain runs newest first (the ~2021 LIFO).
    private let lifo: Bool
    private var appReady = false
    private var uiReady = false
    private var will: [ReadinessBlock] = []
    private var did: [ReadinessBlock] = []
    private var ui: [ReadinessBlock] = []
    private var polite: [ReadinessBlock] = []

    init(session: LaunchSession, lifo: Bool = false) {
        self.session = session
        self.lifo = lifo
    }

    func register(_ block: ReadinessBlock) {
        switch block.kind {
        case .will: appReady ? session.run(block, ownTurn: false) : will.append(block)
        case .did: appReady ? session.run(block, ownTurn: false) : did.append(block)
        case .ui: uiReady ? session.run(block, ownTurn: false) : ui.append(block)
        case .polite:
            if appReady {
                session.executor.async { [self] in session.run(block, ownTurn: true) }
            } else {
                polite.append(block)
            }
        }
    }

    func registerOffMain(_ block: ReadinessBlock) {
        session.executor.async { [self] in register(block) }
    }

    func setAppReady() {
        let p = lifo ? Array(polite.reversed()) : polite
        polite = []
        appReady = true
        session.markAppReady()
        let (w, d) = (will, did)
        (will, did) = ([], [])
        for b in w { session.run(b, ownTurn: false) }
        for b in d { session.run(b, ownTurn: false) }
        chain(p[...])
    }

    private func chain(_ tasks: ArraySlice<ReadinessBlock>) {
        session.executor.asyncAfter(.milliseconds(25)) { [self] in
            guard let first = tasks.first else { return }
            session.run(first, ownTurn: true)
            chain(tasks.dropFirst())
        }
    }

    func setUIReady() {
        uiReady = true
        let u = ui
        ui = []
        for b in u { session.run(b, ownTurn: false) }
    }
}
