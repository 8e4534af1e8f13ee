import Differential
import Measurement
import Simulation

/// bench-invalidation's differential case: a short plan of writes from the three processes, reads
/// in the main app and the share extension, share sessions and app activations (an
/// `InvalidationPlan`, the workload's own input), run by two invalidation designs in the
/// workload's own `InvalidationSimulation` with the costs of the first catalogued scenario.
///
/// **Its log**: the run's timeline in time order (ties in recorded order): every slice and
/// instant (posts delivered, handler runs, evacuations, reads served stale, UI refreshes) at the
/// virtual nanosecond it started, with its track and duration; then one `outcome` event with the
/// tally's counts (reads, hits, stale reads, store reads, missed invalidations, UI refreshes). A
/// broken contract adds a `violation` event. Cache-occupancy counters are left out.
public struct InvalidationCase: DifferentialCase, Equatable {
    /// The plan; `seed` is the run's own (the simulation's remaining draws).
    public var plan: InvalidationPlan
    public var seed: UInt64

    public static let workload = "invalidation"

    public var size: Int { plan.writes.count + plan.mainReads.count + plan.shareReads.count + plan.activations.count }

    /// Over 10 s, 1–8 keys and caches of 1–4 entries: 1–6 writes of 1–2 keys from a random
    /// process, 0–6 main reads, 0–3 share reads in one share session, 0–2 activation changes.
    public static func random(_ g: inout SeededGenerator) -> InvalidationCase {
        let duration: Int64 = 10_000_000_000
        let keys = Int(g.nextInt(in: 1...8))
        func time() -> Int64 { g.nextInt(in: 0...duration - 1) }
        func key() -> Int { Int(g.nextInt(in: 0...Int64(keys - 1))) }
        let roles = ProcessRole.allCases
        let writes = (0..<Int(g.nextInt(in: 1...6))).map { _ in
            InvalidationPlan.Write(
                timeNs: time(),
                role: roles[Int(g.nextInt(in: 0...Int64(roles.count - 1)))],
                keys: (0..<Int(g.nextInt(in: 1...2))).map { _ in key() }
            )
        }
        let main = (0..<Int(g.nextInt(in: 0...6))).map { _ in InvalidationPlan.Read(timeNs: time(), key: key()) }
        let share = (0..<Int(g.nextInt(in: 0...3))).map { _ in InvalidationPlan.Read(timeNs: time(), key: key()) }
        let activations = (0..<Int(g.nextInt(in: 0...2))).map { i in InvalidationPlan.Activation(timeNs: time(), active: i % 2 == 1) }
        let plan = InvalidationPlan(
            durationNs: duration,
            keys: keys,
            mainCacheCapacity: Int(g.nextInt(in: 1...4)),
            shareCacheCapacity: Int(g.nextInt(in: 1...4)),
            writes: writes.sorted { $0.timeNs < $1.timeNs },
            mainReads: main.sorted { $0.timeNs < $1.timeNs },
            shareReads: share.sorted { $0.timeNs < $1.timeNs },
            shareSessionStarts: share.isEmpty ? [] : [0],
            activations: activations.sorted { $0.timeNs < $1.timeNs }
        )
        return InvalidationCase(plan: plan, seed: g.next())
    }

    /// Drop a write, a read or an activation change; halve an event's time (keeping the order).
    public var shrinkCandidates: [InvalidationCase] {
        var out: [InvalidationCase] = []
        func with(_ change: (inout InvalidationPlan) -> Void) {
            var copy = self
            change(&copy.plan)
            out.append(copy)
        }
        if plan.writes.count > 1 { for i in plan.writes.indices { with { $0.writes.remove(at: i) } } }
        for i in plan.mainReads.indices { with { $0.mainReads.remove(at: i) } }
        for i in plan.shareReads.indices { with { $0.shareReads.remove(at: i) } }
        for i in plan.activations.indices { with { $0.activations.remove(at: i) } }
        for (i, w) in plan.writes.enumerated() where w.keys.count > 1 { with { $0.writes[i].keys = [w.keys[0]] } }
        for (i, w) in plan.writes.enumerated() where w.timeNs > (i > 0 ? plan.writes[i - 1].timeNs : 0) {
            let floor = i > 0 ? plan.writes[i - 1].timeNs : 0
            with { $0.writes[i].timeNs = floor + (w.timeNs - floor) / 2 }
        }
        for (i, r) in plan.mainReads.enumerated() where r.timeNs > (i > 0 ? plan.mainReads[i - 1].timeNs : 0) {
            let floor = i > 0 ? plan.mainReads[i - 1].timeNs : 0
            with { $0.mainReads[i].timeNs = floor + (r.timeNs - floor) / 2 }
        }
        return out
    }

    /// Runs the design on this plan.
    public func observe(_ variant: InvalidationVariant) -> [ObservedEvent] {
        let run = InvalidationSimulation.record(
            variant: variant,
            scenario: InvalidationScenario.catalogue[0],
            plan: plan,
            seed: seed,
            trace: true
        )
        let t = run.tally
        return ObservedLog.closed(
            ObservedLog.inTimeOrder(ObservedLog.events(of: run.trace)),
            outcome:
                "reads=\(t.reads) hits=\(t.hits) stale=\(t.staleReads) store_reads=\(t.storeReads) share_stale=\(t.shareStaleReads) missed=\(t.missedInvalidations) ui_refreshes=\(t.uiRefreshes)",
            violation: run.violation
        )
    }
}
