import ArgumentParser
import BenchCommandLine
import Caching
import Measurement
import Records

/// bench-cache's own options, on top of the shared `CommonOptions`.
package struct CacheOptions: ParsableArguments {
    package init() {}

    @Option(help: "sim (virtual time, deterministic) or live (the real implementations on real threads).")
    var mode: RunMode = .sim

    @Option(help: ArgumentHelp("Replay a CSV of reads (header: key) instead of the generated traces.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Process contexts: main-app, nse, share-extension (comma-separated).", valueName: "name"))
    var context: [String] = []

    @Option(help: ArgumentHelp("Main-app cache sizes (comma-separated), replacing the default sweep.", valueName: "n"))
    var capacity: [String] = []

    @Option(help: ArgumentHelp("Reads per generated trace (default 10000; 3000 with --quick).", valueName: "n"))
    var reads: Int?

    @Option(help: ArgumentHelp("Live: thread counts, 1-16 (comma-separated; default 1,4,16).", valueName: "n"))
    var threads: [String] = []

    @Option(help: ArgumentHelp("Live: operations get, set, clear, fill (comma-separated).", valueName: "name"))
    var operation: [String] = []

    @Option(
        help: ArgumentHelp("Live: measured seconds per get/set cell (default 0.2; 0.05 with --quick).", valueName: "s"),
        transform: decimalArgument
    )
    var duration: Double?

    @Option(help: "Process allocator: system or jemalloc (counts allocations and bytes per entry; needs libjemalloc2).")
    var allocator: AllocatorChoice = .system

    static func integers(_ values: [String], _ flag: String) throws -> [Int] {
        try CommonOptions.splitList(values).map { text in
            guard let n = Int(text) else { throw ValidationError("\(flag) expects whole numbers, got '\(text)'") }
            return n
        }
    }

    package func validate() throws {
        _ = try Self.integers(capacity, "--capacity")
        _ = try Self.integers(threads, "--threads")
        if let duration, !duration.isFinite { throw ValidationError("--duration must be finite") }
        if mode == .sim, allocator != .system { throw ValidationError("--allocator applies to --mode live only") }
    }

    var configuration: CacheConfiguration {
        get throws {
            var c = CacheConfiguration()
            c.mode = mode
            c.tracePath = trace
            c.contexts = CommonOptions.splitList(context)
            c.capacities = try Self.integers(capacity, "--capacity")
            c.reads = reads
            c.threads = try Self.integers(threads, "--threads")
            c.operations = CommonOptions.splitList(operation)
            c.duration = duration
            return c
        }
    }
}
