import ArgumentParser
import BenchCommandLine
import Foundation
import Locking
import Measurement

/// `bench-atomics`: Signal-style atomic wrappers on each lock strategy, under contention.
@main
struct BenchAtomics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-atomics",
        abstract: "Signal-style atomic wrappers on pthread_mutex, NSLock, DispatchQueue and more, under contention.",
        discussion: """
        Scenarios are operations (--list shows them); variants are lock strategies. The default run is a \
        curated slice; --full sweeps every operation, strategy, thread count and work amount. \
        Results: <output>/atomics.csv and atomics.json in the shared schema, factor columns \
        threads, cs_work, gap_work. See docs/bench-atomics.md.
        """
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: ArgumentHelp("Thread counts, comma-separated (1…1024; default 1,2,4,8).", valueName: "n"))
    var threads: [String] = []

    @Option(name: .customLong("cs-work"), help: ArgumentHelp("Work inside each critical section: 0, 50ns, 500ns, 1us, … (comma-separated).", valueName: "amount"))
    var csWork: [String] = []

    @Option(name: .customLong("gap-work"), help: ArgumentHelp("Work between operations: 0, 50ns, 1us, … (comma-separated).", valueName: "amount"))
    var gapWork: [String] = []

    @Option(name: .long, help: ArgumentHelp("Measured seconds per repetition (default 0.15; 0.05 with --quick).", valueName: "s"))
    var duration: Double?

    @Option(name: .long, help: ArgumentHelp("Unmeasured warm-up seconds before each strategy's first repetition in a cell (default 0.03).", valueName: "s"))
    var warmup: Double?

    @Flag(name: .long, help: "Sweep everything: all operations, strategies, thread counts, cs_work 0/50ns/500ns, gap_work 0/50ns/1us.")
    var full = false

    @Option(name: .long, help: "Process allocator: system or jemalloc (jemalloc needs libjemalloc2 / libjemalloc-dev).")
    var allocator: AllocatorChoice = .system

    @Flag(name: .long, help: "Pin worker i to CPU i mod the number of CPUs.")
    var pin = false

    @Option(name: .customLong("probe-duration"), help: ArgumentHelp("Seconds of the co-scheduling probe before and after the run (default 0.2; 0 to skip).", valueName: "s"))
    var probeDuration: Double = 0.2

    static func main() { BenchMain.run(Self.self) }

    mutating func run() throws {
        if common.list {
            print(Self.listing())
            return
        }
        let options = try AtomicsOptions(command: self)
        let active: AllocatorSwitch.Active
        do { active = try AllocatorSwitch.activate(allocator) } catch {
            switch error {
            case .notInstalled: throw BenchFailure.unavailable(error.description)
            case .failed: throw BenchFailure.runtime(error.description)
            }
        }
        var output = try RunOutput(workload: "atomics", options: common)
        BenchMain.warnIfDebug("bench-atomics is measuring", quiet: common.quiet)
        let session = AtomicsSession(options: options, allocator: active, quiet: common.quiet)
        let result = try session.run(into: &output)
        _ = try output.finish(
            factorNames: ContentionCell.factorNames, parameters: result.parameters, notes: result.notes,
            table: { result.table }
        )
        if let violation = result.violation { throw BenchFailure.runtime(violation) }
    }

    static func listing() -> String {
        var out = "scenarios (operations):\n"
        for op in ContentionOperation.allCases {
            out += "  \(op.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(op.summary)\(ContentionOperation.defaultSlice.contains(op) ? "  [default]" : "")\n"
        }
        out += "variants (lock strategies and references):\n"
        for v in LockVariant.allCases {
            out += "  \(v.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(v.summary)\(LockVariant.defaultSlice.contains(v) ? "  [default]" : "")\n"
        }
        out += "factors: threads (default 1,2,4,8), cs_work (default 0,50ns), gap_work (default 0)"
        return out
    }
}

extension AllocatorChoice: ExpressibleByArgument {}
