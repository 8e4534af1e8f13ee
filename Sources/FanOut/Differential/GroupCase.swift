import Differential
import Measurement
import Simulation

/// bench-group's differential case: the first `flows` login flows of a scenario and a seed (their
/// arrivals, movie counts and every call's outcome are the seed's draws), run by two fan-out
/// strategies in the workload's own `FanOutSimulation`.
///
/// The flows are drawn from the seed as a measuring run draws them, and flow `i` does not depend
/// on how many follow, so shrinking lowers the count (and moves to the plainest scenario) but
/// cannot drop a flow from the middle or change a call's outcome: a coarser shrink than the other
/// workloads'.
///
/// **Its log**: the simulation's timeline in time order (ties in recorded order): the main
/// thread's slices (taps, UI updates, `blocked in group.wait`), missed frames, every call (its
/// service, start and duration, cancelled or not) and every worker thread's span, each at the
/// virtual nanosecond it started with its track and duration; then one `outcome` event (flows
/// failed, calls, cancelled calls, missed frames). A broken contract adds a `violation` event.
/// Frames on an idle main thread are left out: they follow from the rest.
public struct GroupCase: DifferentialCase, Hashable {
    /// A `FanOutScenario` name (`login`, `login-per-movie`, `flaky`, `heavy-tail`).
    public var scenario: String
    /// The seed of the flows' draws.
    public var seed: UInt64
    /// How many flows run.
    public var flows: Int

    public static let workload = "group"

    public var size: Int { flows }

    /// A random scenario, seed and 1–12 flows.
    public static func random(_ g: inout SeededGenerator) -> GroupCase {
        let all = FanOutScenario.catalogue
        return GroupCase(
            scenario: all[Int(g.nextInt(in: 0...Int64(all.count - 1)))].name,
            seed: g.next(),
            flows: Int(g.nextInt(in: 1...12))
        )
    }

    /// One flow fewer, half the flows, the first (plainest) scenario.
    public var shrinkCandidates: [GroupCase] {
        var out: [GroupCase] = []
        if flows > 1 {
            out.append(GroupCase(scenario: scenario, seed: seed, flows: flows / 2))
            out.append(GroupCase(scenario: scenario, seed: seed, flows: flows - 1))
        }
        if let first = FanOutScenario.catalogue.first, first.name != scenario {
            out.append(GroupCase(scenario: first.name, seed: seed, flows: flows))
        }
        return out
    }

    /// Runs the strategy's shape on this case's flows.
    public func observe(_ variant: FanOutVariant) -> [ObservedEvent] {
        let scenario = FanOutScenario.catalogue.first { $0.name == self.scenario } ?? FanOutScenario.catalogue[0]
        let result = FanOutSimulation.run(
            FanOutSimulation.Request(shape: variant.shape, scenario: scenario, seed: seed, flows: max(1, flows), recordTrace: true)
        )
        let r = result
        return ObservedLog.closed(
            ObservedLog.inTimeOrder(ObservedLog.events(of: r.trace)),
            outcome: "failed=\(r.flowsFailed) calls=\(r.callsTotal) cancelled=\(r.cancelledCalls) missed_frames=\(r.missedFrames)",
            violation: r.violation
        )
    }
}
