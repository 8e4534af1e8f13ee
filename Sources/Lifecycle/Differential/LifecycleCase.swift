import Differential
import Measurement
import Simulation

/// bench-lifecycle's differential case: a few process lifetimes (sessions) of OS and user
/// transitions, run by two lifecycle strategies in the workload's own `LifecycleSimulation` (default
/// OS rules and app profile; the cost draws of `draw_seed`, the everyday scenario's shape).
///
/// **Its log**: the simulation's timeline, in order: every slice (a save, a launch's work, a
/// refresh attempt, …) as an event named for it at the virtual nanosecond it started, detail its
/// track and duration; every instant (a kill, an expiration, …) on the OS track; then one `outcome`
/// event at the end with what the user lost (`acknowledged`, `lost`, `corrupt_launches`, kills). A
/// broken contract adds a `violation` event. Memory counters are left out: they follow from the rest.
public struct LifecycleCase: DifferentialCase, Hashable {
    /// One transition of a session, its time from the session's launch.
    public struct Event: Codable, Hashable, Sendable {
        public var atNs: Int64
        /// A `Transition` name (`edit`, `background`, `kill`, …); each session starts with `launch`.
        public var transition: String

        enum CodingKeys: String, CodingKey {
            case atNs = "at_ns"
            case transition
        }
    }

    /// The seed of the sessions' cost draws (save durations, refresh attempts).
    public var drawSeed: UInt64
    /// The sessions, each starting with its `launch` at 0.
    public var sessions: [[Event]]

    enum CodingKeys: String, CodingKey {
        case drawSeed = "draw_seed"
        case sessions
    }

    public static let workload = "lifecycle"

    public var size: Int { sessions.reduce(0) { $0 + $1.count } }

    static let afterLaunch = Transition.allCases.filter { $0 != .launch }

    /// 1–3 sessions of a launch and 1–8 transitions, 0.1–60 s apart.
    public static func random(_ g: inout SeededGenerator) -> LifecycleCase {
        let sessions = (0..<Int(g.nextInt(in: 1...3))).map { _ in
            var t: Int64 = 0
            var events = [Event(atNs: 0, transition: Transition.launch.rawValue)]
            for _ in 0..<Int(g.nextInt(in: 1...8)) {
                t += g.nextInt(in: 100_000_000...60_000_000_000)
                events.append(Event(atNs: t, transition: afterLaunch[Int(g.nextInt(in: 0...Int64(afterLaunch.count - 1)))].rawValue))
            }
            return events
        }
        return LifecycleCase(drawSeed: g.next(), sessions: sessions)
    }

    /// Drop a session; drop a transition (never a launch); halve the gap to the transition before.
    public var shrinkCandidates: [LifecycleCase] {
        var out: [LifecycleCase] = []
        if sessions.count > 1 {
            for s in sessions.indices {
                var copy = self
                copy.sessions.remove(at: s)
                out.append(copy)
            }
        }
        for (s, events) in sessions.enumerated() {
            for i in events.indices.dropFirst() {
                var copy = self
                copy.sessions[s].remove(at: i)
                out.append(copy)
            }
            for i in events.indices.dropFirst() where events[i].atNs > events[i - 1].atNs {
                var copy = self
                copy.sessions[s][i].atNs -= (events[i].atNs - events[i - 1].atNs + 1) / 2
                out.append(copy)
            }
        }
        return out
    }

    /// Runs the strategy's declaration through the sessions.
    public func observe(_ variant: LifecycleVariant) -> [ObservedEvent] {
        let profile = AppProfile()
        let shape = LifecycleScenario.everyday.shape
        let scripts = sessions.enumerated().map { i, events in
            SessionScript(
                events: events.map {
                    SessionScript.Event(time: SimInstant(nanoseconds: $0.atNs), transition: Transition(rawValue: $0.transition) ?? .edit)
                },
                draws: SessionGenerator.draws(shape: shape, profile: profile, seed: drawSeed, index: i)
            )
        }
        let outcome = LifecycleSimulation(policy: variant.policy, profile: profile, record: true).run(scripts)
        let t = outcome.tally
        // In the order the simulation recorded them, as this workload's log has always been read.
        return ObservedLog.closed(
            ObservedLog.events(of: outcome.events),
            outcome:
                "acknowledged=\(t.acknowledged) lost=\(t.acknowledgedLost) corrupt_launches=\(t.corruptLaunches) watchdog_kills=\(t.watchdogKills) jetsam_kills=\(t.jetsamKills)",
            violation: outcome.violation
        )
    }
}
