import Records
import Simulation

/// bench-lifecycle's settings as plain values; the executable fills them in, the workload
/// validates combinations.
package struct LifecycleConfiguration: Sendable {
    package typealias Mode = RunMode

    package var mode: Mode = .sim
    /// Sessions per item (nil: 200, or 40 with `--quick`).
    package var sessions: Int?
    /// `--trace`: replay these transitions (scenario `trace`).
    package var tracePath: String?
    package var rules = OSRules()
    package var profile = AppProfile()
    /// Live: kills per durability strategy and seed (nil: 40, or 10 with `--quick`), and the
    /// directory the app's files go in (nil: a fresh temporary directory per item).
    package var kills: Int?
    package var liveDirectory: String?
    /// Live: the command line that runs the app child; the harness appends its arguments.
    package var childCommand: [String] = []

    package init() {}
}
