import Foundation
import Measurement
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The main app of a live run: reads and writes per the plan while active, listens on its FIFOs
/// with `poll`, and reacts like `InvalidationSimulation`'s main app (same cache, same debouncer,
/// same variant switches) — but on real time, a real database and real deliveries.
///
/// Stale reads are counted exactly: every cache hit is checked against the row's committed
/// version (an audit read that is not counted as a store read).
struct LiveMainApp {
    var context: ChildContext
    var tally = InvalidationTally()
    /// The same state machine the simulation steps.
    var app: MainAppReaction
    var fireAt: Int64?
    var refreshTimes: [Int64] = []
    var listeners: [NotificationListener] = []
    var logReader: ChangeLogReader
    /// Rows an evacuation dropped though unchanged, with the version dropped.
    var dropped: [Int: Int64] = [:]
    var actedForeignPosts = 0
    /// What the cache should hold (`InvalidationContract.keepsItsCache`), checked after each read's timing.
    var ledger: MainCacheLedger
    let mainTag = Int64(ProcessRole.main.tag)

    init(context: ChildContext) {
        self.context = context
        app = MainAppReaction(
            variant: context.spec.variant,
            cacheCapacity: context.spec.plan.mainCacheCapacity,
            debounceInterval: SimDuration(nanoseconds: context.spec.debounceNs)
        )
        logReader = ChangeLogReader(db: context.db, role: .main)
        ledger = MainCacheLedger(capacity: context.spec.plan.mainCacheCapacity)
    }

    var variant: InvalidationVariant { context.spec.variant }
    var db: SQLiteConnection { context.db }

    mutating func run() throws -> InvalidationTally {
        for name in context.spec.mainChannels() {
            listeners.append(
                try NotificationListener(
                    path: NotificationPoster.fifoPath(directory: context.directory, listener: .main, name: name),
                    name: name
                )
            )
        }
        defer { for l in listeners { l.close() } }
        try logReader.skipToEnd()
        enum Step {
            case activation(Bool)
            case write([Int])
            case read(Int)
        }
        let plan = context.spec.plan
        var steps: [(Int64, Int, Step)] = plan.activations.map { ($0.timeNs, 0, .activation($0.active)) }
        steps += plan.writes.filter { $0.role == .main }.map { ($0.timeNs, 1, .write($0.keys)) }
        steps += plan.mainReads.map { ($0.timeNs, 3, .read($0.key)) }
        steps.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        for (t, _, step) in steps {
            try wait(until: t)
            switch step {
            case .activation(let a):
                if app.setActive(a) { refresh(at: context.now()) }
            case .write(let keys): try ownWrite(keys)
            case .read(let key): try read(key)
            }
        }
        // Drain: until both extensions have exited, then until no UI refresh is pending and
        // 100 ms passed without a delivery.
        let writersDone = LiveRunSpec.writersDonePath(context.directory)
        while access(writersDone, F_OK) != 0 { try wait(until: context.now() + 10_000_000) }
        try wait(until: context.now() + 100_000_000)
        while let f = fireAt { try wait(until: f + 1_000_000) }
        return try finish()
    }

    /// Serves deliveries and the debounce timer until `t`.
    mutating func wait(until t: Int64) throws {
        while true {
            try context.checkAlive()
            let now = context.now()
            if let f = fireAt, f <= now {
                fireAt = nil
                app.debounceFired(at: SimInstant(nanoseconds: now))
                refresh(at: now)
                continue
            }
            let next = min(t, fireAt ?? Int64.max)
            guard next > now else { return }
            let timeoutMs = Int32(min(50, (next - now + 999_999) / 1_000_000))
            var fds = listeners.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let n =
                fds.isEmpty
                ? {
                    usleep(UInt32(timeoutMs) * 1000)
                    return 0
                }() : poll(&fds, nfds_t(fds.count), timeoutMs)
            guard n > 0 else { continue }
            for (i, fd) in fds.enumerated() where fd.revents & Int16(POLLIN) != 0 { try handle(listeners[i]) }
        }
    }

    /// One handler run: everything pending on this name at once (coalesced).
    mutating func handle(_ listener: NotificationListener) throws {
        let tags = listener.drain()
        guard !tags.isEmpty else { return }
        let now = context.now()
        tally.handlerRuns += 1
        tally.postsDelivered += tags.count
        let ownPid = context.state.map { $0.get() == UInt64(getpid()) } ?? false
        let outcome = app.delivery(at: SimInstant(nanoseconds: now), stateIsOwnPid: ownPid)
        guard outcome.acted else { return }  // legacy: "my own" post
        actedForeignPosts += tags.filter { $0 != ProcessRole.main.tag }.count
        if let evacuated = outcome.evacuated {
            ledger.evacuated()
            tally.evacuations += 1
            for (k, v) in evacuated {
                try closeWindow(k, cachedVersion: v, at: now)
                if try current(k) == v { dropped[k] = v }
            }
        }
        switch outcome.refresh {
        case .now: refresh(at: now)
        case .at(let at): fireAt = at.nanoseconds
        case .none: break
        }
    }

    mutating func refresh(at t: Int64) {
        tally.uiRefreshes += 1
        refreshTimes.append(t)
    }

    func current(_ key: Int) throws -> Int64 { try db.scalar("SELECT version FROM rows WHERE key = ?", [Int64(key)]) ?? 0 }

    /// The cache no longer holds version `v` of `key`: if another process had committed a newer
    /// version meanwhile, the window from that commit to now is one staleness sample.
    mutating func closeWindow(_ key: Int, cachedVersion v: Int64, at t: Int64, censored: Bool = false) throws {
        guard !variant.validatesEveryRead else { return }
        guard
            let first = try db.scalar(
                "SELECT MIN(committed_ns) FROM versions WHERE key = ? AND version > ? AND writer != ?",
                [Int64(key), v, mainTag]
            )
        else { return }
        tally.staleness.record(t - (first - context.spec.lifetime.startRawNs))
        if censored { tally.stalenessCensored += 1 }
    }

    mutating func ownWrite(_ keys: [Int]) throws {
        let written = try context.write(keys)
        let now = context.now()
        for (k, v) in written {
            dropped[k] = nil
            if let old = app.cache.peek(k) { try closeWindow(k, cachedVersion: old, at: now) }
            let victim = app.cache.store(k, version: v)
            ledger.stored(k, victim: victim?.key)
            if let victim { try closeWindow(victim.key, cachedVersion: victim.version, at: now) }
        }
    }

    mutating func read(_ key: Int) throws {
        let started = SystemMonotonicClock.raw()
        if variant.validatesEveryRead {
            let before = logReader.queries
            for k in try logReader.changedKeys() {
                ledger.removed(k)
                guard app.cache.remove(k) != nil else { continue }
                tally.targetedEvictions += 1
                tally.staleness.record(0)  // removed before any read could return it
            }
            let q = logReader.queries - before
            tally.logQueries += q
            tally.storeReads += q
            tally.extraStoreReads += q
        }
        tally.reads += 1
        let now = context.now()
        if let v = app.cache.lookup(key) {
            tally.readCost.record(SystemMonotonicClock.raw() - started)
            ledger.read(key, hit: true, count: app.cache.count, at: SimInstant(nanoseconds: now))
            tally.hits += 1
            if v < (try current(key)) { tally.staleReads += 1 }  // the audit read
            return
        }
        let version = try current(key)
        tally.readCost.record(SystemMonotonicClock.raw() - started)
        ledger.read(key, hit: false, count: app.cache.count, at: SimInstant(nanoseconds: now))
        tally.storeReads += 1
        if let d = dropped.removeValue(forKey: key), d == version { tally.extraStoreReads += 1 }
        let victim = app.cache.store(key, version: version)
        ledger.stored(key, victim: victim?.key)
        if let victim { try closeWindow(victim.key, cachedVersion: victim.version, at: now) }
    }

    mutating func finish() throws -> InvalidationTally {
        tally.mainCacheViolation = ledger.check.first
        let end = max(context.now(), context.spec.plan.durationNs)
        for (k, v) in app.cache.evacuate() { try closeWindow(k, cachedVersion: v, at: end, censored: true) }
        let foreign = try db.query("SELECT seq, committed_ns FROM commits WHERE writer != ? ORDER BY committed_ns", [mainTag])
        tally.foreignCommits = foreign.count
        var r = 0
        for row in foreign {
            let t = row[1] - context.spec.lifetime.startRawNs
            while r < refreshTimes.count, refreshTimes[r] < t { r += 1 }
            if r < refreshTimes.count {
                tally.uiRefreshLatency.record(refreshTimes[r] - t)
            } else {
                tally.uiRefreshLatency.record(end - t)
                tally.uiRefreshCensored += 1
            }
        }
        switch variant {
        case .signal, .signalLegacy: tally.missedInvalidations = max(0, foreign.count - actedForeignPosts)
        case .noInvalidation: tally.missedInvalidations = foreign.count
        case .changeLog:
            // A foreign commit is missed only if its rows never reached the log.
            tally.missedInvalidations = Int(
                try db.scalar(
                    "SELECT COUNT(*) FROM commits c WHERE c.writer != ? AND NOT EXISTS (SELECT 1 FROM changes WHERE commit_seq = c.seq)",
                    [mainTag]
                ) ?? 0
            )
        }
        tally.durationNs = context.spec.plan.durationNs
        return tally
    }
}
