import Measurement
import Simulation
import Timelines

/// One variant through one plan in virtual time: the shared database, the main app's cache and
/// UI, the share extension's cache, and the notification deliveries between them.
///
/// Notifications model Darwin's: no payload, delivered to each listener after a random delay,
/// and a post that finds a delivery still pending on the same (listener, name) coalesces into it.
/// Only the main app's listener matters (the extensions never react), so only it is simulated.
public struct InvalidationSimulation {
    enum Event: Sendable {
        case write(Int)
        case mainRead(Int)
        case shareRead(Int)
        case shareSessionStart
        case activation(Bool)
        /// A delivery to the main app on the channel of this role (legacy: the shared name, `.main`).
        case delivery(ProcessRole)
        case debounceFire
    }

    /// A foreign commit, followed until its invalidation reaches the main app and the UI.
    struct ForeignCommit {
        var time: SimInstant
        var processed = false
    }

    let variant: InvalidationVariant
    let plan: InvalidationPlan
    let scenario: InvalidationScenario
    let debounceInterval: SimDuration
    var rng: SeededGenerator

    var queue = EventQueue<Event>()
    var versions: [Int64]
    /// The main app's cache, debouncer and activity: the state machine live mode steps too.
    var app: MainAppReaction
    var shareCache: ReaderCache
    /// Posts waiting in a pending delivery, per channel: the foreign commit index, or nil for the
    /// main app's own post (legacy only: it listens to the shared name too).
    var pending: [ProcessRole: [Int?]] = [:]
    /// Legacy: the shared notification state, the last writer's "pid".
    var sharedState: ProcessRole?
    var foreign: [ForeignCommit] = []
    /// First foreign commit not yet shown by a UI refresh (commits are in time order).
    var unrefreshed = 0
    /// The change log of every commit: writer, foreign-commit index (nil for the main app's own),
    /// rows; each reader keeps a cursor into it and skips its own entries.
    var log: [(writer: ProcessRole, commit: Int?, keys: [Int])] = []
    var mainCursor = 0
    var shareCursor = 0
    /// Rows the main cache holds at an older version than committed: since when.
    var openWindows: [Int: SimInstant] = [:]
    /// Rows an evacuation dropped although unchanged since cached: a miss on them is extra.
    var droppedUnchanged = Set<Int>()
    var tally = InvalidationTally()
    /// What the main cache should hold (`InvalidationContract.keepsItsCache`), checked at every read.
    var ledger: MainCacheLedger
    var now = SimInstant.zero
    /// What happened, for `--perfetto` and `--events` (`InvalidationSimulation+Trace`); nil unless
    /// the run records its timeline.
    var trace: [TraceEvent]?
    /// The main cache's occupancy last put on the trace.
    var tracedOccupancy = -1

    public static func run(
        variant: InvalidationVariant,
        scenario: InvalidationScenario,
        plan: InvalidationPlan,
        seed: UInt64,
        debounceInterval: SimDuration = .seconds(3)
    ) -> InvalidationTally {
        record(variant: variant, scenario: scenario, plan: plan, seed: seed, debounceInterval: debounceInterval, trace: false).tally
    }

    /// One run that also returns its timeline when `trace` is set (else exactly `run`'s, with an
    /// empty timeline), and the first broken rule of `InvalidationContract`, if any. `fault` is
    /// the contract tests' breaker (the role is closed: no variant of a user's can break it).
    public static func record(
        variant: InvalidationVariant,
        scenario: InvalidationScenario,
        plan: InvalidationPlan,
        seed: UInt64,
        debounceInterval: SimDuration = .seconds(3),
        trace: Bool
    ) -> (tally: InvalidationTally, trace: [TraceEvent], violation: ContractViolation?) {
        record(variant: variant, scenario: scenario, plan: plan, seed: seed, debounceInterval: debounceInterval, trace: trace, fault: .none)
    }

    package static func record(
        variant: InvalidationVariant,
        scenario: InvalidationScenario,
        plan: InvalidationPlan,
        seed: UInt64,
        debounceInterval: SimDuration = .seconds(3),
        trace: Bool,
        fault: InvalidationFault
    ) -> (tally: InvalidationTally, trace: [TraceEvent], violation: ContractViolation?) {
        var sim = InvalidationSimulation(variant: variant, plan: plan, scenario: scenario, seed: seed, debounceInterval: debounceInterval)
        sim.app.fault = fault
        if trace { sim.trace = [] }
        let tally = sim.run()
        return (tally, sim.trace ?? [], tally.contractViolation(mode: "sim"))
    }

    init(variant: InvalidationVariant, plan: InvalidationPlan, scenario: InvalidationScenario, seed: UInt64, debounceInterval: SimDuration)
    {
        self.variant = variant
        self.plan = plan
        self.scenario = scenario
        self.debounceInterval = debounceInterval
        rng = SeededGenerator.stream(100, of: seed)
        versions = Array(repeating: 0, count: plan.keys)
        app = MainAppReaction(variant: variant, cacheCapacity: plan.mainCacheCapacity, debounceInterval: debounceInterval)
        shareCache = ReaderCache(capacity: plan.shareCacheCapacity)
        ledger = MainCacheLedger(capacity: plan.mainCacheCapacity)
    }

    mutating func run() -> InvalidationTally {
        // Priorities at one instant: activation, then writes, then deliveries/fires, then reads.
        for (i, w) in plan.writes.enumerated() { queue.schedule(.write(i), at: SimInstant(nanoseconds: w.timeNs), priority: 1) }
        for (i, r) in plan.mainReads.enumerated() { queue.schedule(.mainRead(i), at: SimInstant(nanoseconds: r.timeNs), priority: 3) }
        for (i, r) in plan.shareReads.enumerated() { queue.schedule(.shareRead(i), at: SimInstant(nanoseconds: r.timeNs), priority: 3) }
        for t in plan.shareSessionStarts { queue.schedule(.shareSessionStart, at: SimInstant(nanoseconds: t), priority: 0) }
        for a in plan.activations { queue.schedule(.activation(a.active), at: SimInstant(nanoseconds: a.timeNs), priority: 0) }
        while let (time, event) = queue.next() {
            now = time
            switch event {
            case .write(let i): write(plan.writes[i])
            case .mainRead(let i): mainRead(plan.mainReads[i].key)
            case .shareRead(let i): shareRead(plan.shareReads[i].key)
            case .shareSessionStart:
                shareCache = ReaderCache(capacity: plan.shareCacheCapacity)
                shareCursor = log.count
                trace?.append(.instant("session start", on: Self.track(.share), at: now.nanoseconds))
            case .activation(let a):
                trace?.append(.instant(a ? "active" : "background", on: Self.track(.main), at: now.nanoseconds))
                if app.setActive(a) { refreshUI() }
            case .delivery(let channel): deliver(channel)
            case .debounceFire:
                app.debounceFired(at: now)
                refreshUI()
            }
            if trace != nil { recordOccupancy() }
        }
        return finish()
    }

    mutating func write(_ w: InvalidationPlan.Write) {
        trace?.append(.slice("write", on: Self.track(w.role), start: now.nanoseconds, duration: 0, value: Double(w.keys.count)))
        for k in w.keys {
            versions[k] += 1
            droppedUnchanged.remove(k)
        }
        var commit: Int?
        defer { log.append((w.role, commit, w.keys)) }
        switch w.role {
        case .main:
            // didInsertOrUpdate: the writer's own cache takes the new value.
            for k in w.keys {
                closeWindow(k)
                let victim = app.cache.store(k, version: versions[k])
                ledger.stored(k, victim: victim?.key)
                if let victim { closeWindow(victim.key) }
            }
        case .nse, .share:
            foreign.append(ForeignCommit(time: now))
            commit = foreign.count - 1
            tally.foreignCommits += 1
            for k in w.keys where app.cache.peek(k) != nil && openWindows[k] == nil {
                if variant.validatesEveryRead {
                    // The next read checks data_version first: no read can return the old value.
                    tally.staleness.record(0)
                } else {
                    openWindows[k] = now
                }
            }
            if w.role == .share {
                for k in w.keys { shareCache.store(k, version: versions[k]) }
            }
        }
        post(from: w.role, commit: commit)
    }

    /// After every write transaction the writer posts; only the main app's listener is modelled.
    mutating func post(from role: ProcessRole, commit: Int?) {
        guard variant.listens else { return }
        let channel: ProcessRole
        if variant.sharedChannel {
            sharedState = role
            channel = .main
        } else {
            guard role != .main else { return }  // main does not listen to its own name
            channel = role
        }
        if pending[channel] != nil {
            pending[channel]!.append(commit)  // coalesced into the pending delivery
            trace?.append(.instant("post (coalesced)", on: Self.track(role), at: now.nanoseconds))
            return
        }
        trace?.append(.instant("post", on: Self.track(role), at: now.nanoseconds))
        pending[channel] = [commit]
        let jitter = -DeterministicMath.log(rng.nextOpenUnit()) * Double(scenario.deliveryJitterMean.nanoseconds)
        queue.schedule(.delivery(channel), at: now + scenario.deliveryBase + SimDuration(nanoseconds: Int64(jitter)), priority: 2)
    }

    mutating func deliver(_ channel: ProcessRole) {
        let posts = pending.removeValue(forKey: channel) ?? []
        tally.postsDelivered += posts.count
        tally.handlerRuns += 1
        let outcome = app.delivery(at: now, stateIsOwnPid: sharedState == .main)
        recordDelivery(channel, posts: posts.count, outcome)
        guard outcome.acted else { return }  // legacy: "its own" notification; the posts are missed
        for case let c? in posts { foreign[c].processed = true }
        if let evacuated = outcome.evacuated {
            ledger.evacuated()
            tally.evacuations += 1
            for (k, v) in evacuated {
                closeWindow(k)
                if v == versions[k] { droppedUnchanged.insert(k) }
            }
        }
        switch outcome.refresh {
        case .now: refreshUI()
        case .at(let t): queue.schedule(.debounceFire, at: t, priority: 2)
        case .none: break
        }
    }

    mutating func refreshUI() {
        tally.uiRefreshes += 1
        trace?.append(.slice("UI refresh", on: Self.track(.main), start: now.nanoseconds, duration: 0))
        while unrefreshed < foreign.count, foreign[unrefreshed].time <= now {
            tally.uiRefreshLatency.record((now - foreign[unrefreshed].time).nanoseconds)
            unrefreshed += 1
        }
    }

    /// Change log: consume the entries past the reader's cursor and evict exactly those rows.
    mutating func consumeLog(main isMain: Bool) {
        let cursor = isMain ? mainCursor : shareCursor
        let reader: ProcessRole = isMain ? .main : .share
        // data_version moves only for other connections' commits: no query when only we wrote.
        guard log[cursor...].contains(where: { $0.writer != reader }) else {
            if isMain { mainCursor = log.count } else { shareCursor = log.count }
            return
        }
        trace?.append(.slice("change log read", on: Self.track(reader), start: now.nanoseconds, duration: 0))
        if isMain {
            tally.logQueries += 1
            tally.storeReads += 1
            tally.extraStoreReads += 1
        }
        for entry in log[cursor...] where entry.writer != reader {
            for k in entry.keys {
                if isMain {
                    ledger.removed(k)
                    if app.cache.remove(k) != nil {
                        tally.targetedEvictions += 1
                        openWindows[k] = nil
                    }
                } else {
                    shareCache.remove(k)
                }
            }
            if isMain, let c = entry.commit { foreign[c].processed = true }
        }
        if isMain { mainCursor = log.count } else { shareCursor = log.count }
    }

    mutating func mainRead(_ key: Int) {
        if variant.validatesEveryRead { consumeLog(main: true) }
        tally.reads += 1
        let cached = app.cache.lookup(key)
        ledger.read(key, hit: cached != nil, count: app.cache.count, at: now)
        if let v = cached {
            tally.hits += 1
            if v < versions[key] {
                tally.staleReads += 1
                trace?.append(.instant("stale read", on: Self.track(.main), at: now.nanoseconds, value: Double(versions[key] - v)))
            }
            return
        }
        tally.storeReads += 1
        if droppedUnchanged.remove(key) != nil { tally.extraStoreReads += 1 }
        let victim = app.cache.store(key, version: versions[key])
        ledger.stored(key, victim: victim?.key)
        if let victim { closeWindow(victim.key) }
    }

    mutating func shareRead(_ key: Int) {
        if variant.validatesEveryRead { consumeLog(main: false) }
        tally.shareReads += 1
        if let v = shareCache.lookup(key) {
            if v < versions[key] {
                tally.shareStaleReads += 1
                trace?.append(.instant("stale read", on: Self.track(.share), at: now.nanoseconds, value: Double(versions[key] - v)))
            }
            return
        }
        shareCache.store(key, version: versions[key])
    }

    mutating func closeWindow(_ key: Int) {
        if let opened = openWindows.removeValue(forKey: key) { tally.staleness.record((now - opened).nanoseconds) }
    }

    mutating func finish() -> InvalidationTally {
        let end = max(now, SimInstant(nanoseconds: plan.durationNs))
        now = end
        // The change log is consumed at the next read; at the end, nothing is left unread in it.
        if variant.validatesEveryRead { for case let c? in log[mainCursor...].map(\.commit) { foreign[c].processed = true } }
        for k in openWindows.keys.sorted() {
            tally.staleness.record((end - openWindows[k]!).nanoseconds)
            tally.stalenessCensored += 1
        }
        openWindows.removeAll()
        for c in foreign[unrefreshed...] {
            tally.uiRefreshLatency.record((end - c.time).nanoseconds)
            tally.uiRefreshCensored += 1
        }
        tally.missedInvalidations = foreign.filter { !$0.processed }.count
        tally.mainCacheViolation = ledger.check.first
        tally.durationNs = plan.durationNs
        return tally
    }
}
