import Measurement
import Simulation
import Timelines

/// Runs one strategy through sessions of transitions under the OS's rules, in virtual time.
///
/// The device outlives each process: what storage holds (the count of changes durably saved and
/// whether the file is torn), the changes the user was told were done, Signal's launch counter, a
/// pending migration and the sync backlog. Each session is one process lifetime, from its launch to
/// its kill; the next launch reads storage and counts what the kill lost or tore. Every draw comes
/// from the session's script, so every variant meets the same sessions (common random numbers).
package struct LifecycleSimulation: Sendable {
    package let policy: LifecyclePolicy
    package let rules: OSRules
    package let profile: AppProfile
    /// Keep a timeline (`--events`, `--perfetto`): off unless asked.
    package let record: Bool

    package init(policy: LifecyclePolicy, rules: OSRules = OSRules(), profile: AppProfile = AppProfile(), record: Bool = false) {
        self.policy = policy
        self.rules = rules
        self.profile = profile
        self.record = record
    }

    /// What storage and the user hold between processes.
    struct Device {
        var acknowledged = 0
        var durable = 0
        var corrupt = false
        var launchesAttempted = 0
        var pendingMigration: SimDuration?
        var syncBacklog: Int64 = 0
    }

    package struct Outcome: Sendable {
        package var tally: LifecycleTally
        package var events: [TraceEvent]
        /// Every kill in order, and whether the app was suspended when it came: the points at
        /// which the live harness kills its real process (SIGSTOP first for a suspended app).
        package var kills: [KillPoint] = []
        /// The first event that broke the lifecycle contract: the item fails with it.
        package var violation: ContractViolation?
    }

    package struct KillPoint: Sendable, Hashable {
        package var reason: String
        package var suspended: Bool
    }

    package func run(_ sessions: [SessionScript]) -> Outcome {
        var device = Device()
        var tally = LifecycleTally()
        var events: [TraceEvent] = []
        var kills: [KillPoint] = []
        var offset: Int64 = 0
        for script in sessions {
            var session = SessionRun(simulation: self, script: script, offset: offset)
            session.run(device: &device, tally: &tally)
            events += session.events
            if let k = session.killPoint { kills.append(k) }
            if let violation = session.violation { return Outcome(tally: tally, events: events, kills: kills, violation: violation) }
            offset = session.lastTime + 1_000_000_000
        }
        // The launch after the last session: what did the last kill leave?
        Self.verifyAtLaunch(&device, &tally)
        return Outcome(tally: tally, events: events, kills: kills)
    }

    /// A launch reads storage: a torn file loses everything acknowledged; otherwise whatever was
    /// acknowledged but not yet durable is lost. The user then sees what was loaded.
    static func verifyAtLaunch(_ device: inout Device, _ tally: inout LifecycleTally) {
        let loaded = device.corrupt ? 0 : device.durable
        if device.corrupt { tally.corruptLaunches += 1 }
        tally.acknowledgedLost += max(0, device.acknowledged - loaded)
        device.acknowledged = loaded
        device.durable = loaded
        device.corrupt = false
    }
}
