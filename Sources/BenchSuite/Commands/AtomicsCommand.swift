import ArgumentParser
import BenchCommandLine
import Locking
import Measurement

/// `bench-atomics`: Signal-style atomic wrappers on each lock strategy, under contention.
package struct AtomicsCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-atomics",
        abstract: "Signal-style atomic wrappers on pthread_mutex, NSLock, DispatchQueue and more, under contention.",
        discussion: """
            Scenarios are operations (--list shows them); variants are lock strategies. The default run is a \
            curated slice; --full sweeps every operation, strategy, thread count and work amount. \
            Results: <output>/atomics.csv and atomics.json in the shared schema, factor columns \
            threads, cs_work_ns, gap_work_ns. See docs/bench-atomics.md.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: ArgumentHelp("Thread counts, comma-separated (1…1024; default 1,2,4,8).", valueName: "n"))
    var threads: [String] = []

    @Option(
        name: .customLong("cs-work"),
        help: ArgumentHelp("Work inside each critical section: 0, 50ns, 500ns, 1us, … (comma-separated).", valueName: "amount")
    )
    var csWork: [String] = []

    @Option(
        name: .customLong("gap-work"),
        help: ArgumentHelp("Work between operations: 0, 50ns, 1us, … (comma-separated).", valueName: "amount")
    )
    var gapWork: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Measured seconds per repetition (default 0.08; 0.05 with --quick).", valueName: "s"),
        transform: decimalArgument
    )
    var duration: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Unmeasured warm-up seconds at the start of each strategy's first repetition in a cell, on its threads (default 0.02).",
            valueName: "s"
        ),
        transform: decimalArgument
    )
    var warmup: Double?

    @Flag(name: .long, help: "Sweep everything: all operations, strategies, thread counts, cs_work 0/50ns/500ns, gap_work 0/50ns/1us.")
    var full = false

    @Option(name: .long, help: "Process allocator: system or jemalloc (jemalloc needs libjemalloc2 / libjemalloc-dev).")
    var allocator: AllocatorChoice = .system

    @Flag(name: .long, help: "Pin worker i to CPU i mod the number of CPUs.")
    var pin = false

    @Option(
        name: .customLong("probe-duration"),
        help: ArgumentHelp("Seconds of the co-scheduling probe before and after the run (default 0.2; 0 to skip).", valueName: "s"),
        transform: decimalArgument
    )
    var probeDuration: Double = 0.2

    package func run() throws {
        var c = AtomicsConfiguration()
        (c.threads, c.csWork, c.gapWork) = (threads, csWork, gapWork)
        (c.duration, c.warmup, c.probeDuration) = (duration, warmup, probeDuration)
        (c.full, c.pin, c.allocator) = (full, pin, allocator)
        try WorkloadDriver.run(AtomicsWorkload.self, configuration: c, common: common, debugWarning: "bench-atomics is measuring")
    }
}

extension AllocatorChoice: ExpressibleByArgument {}
