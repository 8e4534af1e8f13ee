import ArgumentParser
import BenchCommandLine
import Measurement
import Records
import Timekeeping

/// `bench-clock`: how wrong each timing client gets on each clock while the clock is skewed.
@main
struct BenchClock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-clock",
        abstract: "Monotonic vs wall-clock timing while the clock is stepped, slewed, drifting or suspended.",
        discussion: """
            Variants are clock sources (date, realtime, monotonic, monotonic-raw, boottime); scenarios are \
            skew scenarios (see --list) or a --skew FILE with header at_s,kind,value,duration_s. \
            Sim mode (default) is virtual time and deterministic; live mode runs the real process under \
            libfaketime (Debian package faketime).
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    @Option(help: "sim (virtual time, deterministic) or live (real clocks under libfaketime).")
    var mode: RunMode = .sim

    @Option(
        name: .long,
        help: ArgumentHelp("A skew scenario CSV (at_s,kind,value,duration_s) to run instead of the named ones.", valueName: "file")
    )
    var skew: String?

    @Option(name: .long, help: ArgumentHelp("Timing clients to run (comma-separated or repeated); see --list.", valueName: "name"))
    var client: [String] = []

    @Flag(name: .long, help: "Skip the clock read-cost measurement.")
    var noReadCost = false

    @Option(name: .long, help: ArgumentHelp("Repetitions of the read-cost loops.", valueName: "n"))
    var readCostRepetitions = 7

    @Option(name: .long, help: ArgumentHelp("Seconds each live scenario runs (4…600).", valueName: "s"))
    var liveDuration = 5.0

    @Flag(name: .long, help: "Live mode without the timerfd shim, to reproduce libfaketime's timer hang (the child is killed).")
    var liveWithoutShim = false

    /// The live child's entry point: bench-clock re-executes itself with this flag under libfaketime.
    @Option(name: .long, help: .hidden)
    var liveChild: String?

    static func main() { BenchMain.run(Self.self) }

    func validate() throws {
        guard (1...100).contains(readCostRepetitions) else {
            throw ValidationError("--read-cost-repetitions must be between 1 and 100, got \(readCostRepetitions)")
        }
        guard liveDuration.isFinite, (4...600).contains(liveDuration) else {
            throw ValidationError("--live-duration must be between 4 and 600 seconds, got \(liveDuration)")
        }
    }

    func run() throws {
        if differential.isRequested {
            return try differential.run(ClockCase.self, registry: VariantRegistry(builtIn: ClockKind.builtIn), common: common)
        }
        if let liveChild {
            do { try LiveHarness.runChild(planPath: liveChild) } catch { throw BenchFailure.runtime(error.description) }
            return
        }
        var c = ClockConfiguration()
        (c.mode, c.skewPath, c.clients) = (mode, skew, CommonOptions.splitList(client))
        (c.readCost, c.readCostRepetitions) = (!noReadCost, readCostRepetitions)
        (c.liveDuration, c.liveWithoutShim) = (liveDuration, liveWithoutShim)
        c.liveChildCommand = [LiveHarness.selfExecutable(), "--live-child"]
        let timed =
            mode == .live ? "bench-clock live mode measures real clocks" : noReadCost ? nil : "bench-clock measures clock read costs"
        try WorkloadDriver.run(ClockWorkload.self, common: common, debugWarning: timed) {
            try ClockWorkload(configuration: c, environment: $0)
        }
    }
}
