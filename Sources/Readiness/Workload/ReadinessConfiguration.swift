import Records
import Simulation

/// bench-readiness's own settings as plain values; the executable fills them in, the workload
/// validates combinations.
package struct ReadinessConfiguration: Sendable {
    package typealias Mode = RunMode

    package var mode: Mode = .sim
    /// `--globals` (empty: all three).
    package var globals: [String] = []
    package var displayHz: Int?
    /// Taps and scrolls per second, replacing the profile's.
    package var inputRate: Double?
    package var frameAware = FrameAwareScheduler.Parameters()
    /// Live: how long a child may run before the watchdog calls it a deadlock and kills it.
    package var watchdog = SimDuration.seconds(3)
    /// Live: child processes per (variant, probe) in `reentrant-tasks`.
    package var attempts = 2
    /// Live: threads racing through first use in `concurrent-first-use`.
    package var racingThreads = 8
    /// Live: the command line that runs one probe in a child process; the probe's name is
    /// appended. The executable passes itself with its hidden role flag.
    package var childCommand: [String] = []
    /// A recorded launch (xctrace export or Perfetto trace) whose signposted intervals replace
    /// the generated blocks (`LaunchPlan.fromTrace`).
    package var tracePath: String?
    /// The process whose intervals are the launch (nil: the one with the most).
    package var traceProcess: String?

    package init() {}
}
