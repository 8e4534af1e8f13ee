import ArgumentParser
import Foundation
import Measurement

/// The options every `bench-*` command shares, so that the suite has one command-line dialect.
package struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Scenarios to run (comma-separated or repeated); see --list.", valueName: "name"))
    package var scenario: [String] = []

    @Option(name: .long, help: ArgumentHelp("Variants to run (comma-separated or repeated); see --list.", valueName: "name"))
    package var variant: [String] = []

    @Option(name: .long, help: "The first seed; repetition i uses seed + i.")
    package var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("How many seeds (repetitions) per scenario and variant.", valueName: "K"))
    package var seeds: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Folder for <workload>.csv and <workload>.json (default: a new folder under results/runs/).", valueName: "dir")
    )
    package var output: String?

    @Option(name: .long, help: "What to print on stdout: table, csv or json.")
    package var format: OutputFormat = .table

    @Flag(name: .long, help: "A short run: fewer seeds and shorter scenarios, for a smoke test.")
    package var quick = false

    @Flag(name: .long, help: "List the scenarios and variants, then exit.")
    package var list = false

    @Flag(name: .long, help: "With --list: each variant's parameters (its type and settings).")
    package var verbose = false

    @Flag(name: .long, help: "No progress bar and no messages on stderr (errors still print).")
    package var quiet = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run only part I of N of the matrix (1-based), e.g. 2/4; the N parts are disjoint and cover it.",
            valueName: "I/N"
        )
    )
    package var shard: ShardSpec?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run up to N independent matrix items at once (default: the number of cores); results are identical for any N.",
            valueName: "N"
        )
    )
    package var jobs: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the run's event timeline (e.g. every UI update) to this CSV, where the workload has one.",
            valueName: "file"
        )
    )
    package var events: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the run's timelines as a Perfetto trace (open it at ui.perfetto.dev), where the workload has them.",
            valueName: "file"
        )
    )
    package var perfetto: String?

    @Option(
        name: .customLong("perfetto-window"),
        help: ArgumentHelp(
            "Only what starts between A and B seconds into each item goes into --perfetto (default: everything).",
            valueName: "A:B"
        )
    )
    package var perfettoWindow: String?

    @Option(
        name: .customLong("perfetto-limit"),
        help: ArgumentHelp(
            "Cut --perfetto to about this many events, each item to its earliest (default: no cut; the UI crawls beyond a few million).",
            valueName: "events"
        )
    )
    package var perfettoLimit: Int?

    @Option(
        name: .customLong("item-timeout"),
        help: ArgumentHelp(
            "Seconds an item run in a child process (a user's variant, sim or live) may take before it is killed and reported as failed.",
            valueName: "s"
        ),
        transform: decimalArgument
    )
    package var itemTimeout: Double = 600

    @Flag(
        name: .customLong("check-determinism"),
        help:
            "Run every virtual-time item twice, the second time in a child process where the workload allows it, and fail on any difference."
    )
    package var checkDeterminism = false

    /// The child side of an isolated item: run only the item with this (unsharded) index.
    @Option(name: .customLong("isolated-item"), help: .hidden)
    package var isolatedItem: Int?

    /// The child side of an isolated item: where its sample goes, as JSON.
    @Option(name: .customLong("isolated-result"), help: .hidden)
    package var isolatedResult: String?

    package init() {}

    package func validate() throws {
        if let seeds, !(1...10_000).contains(seeds) {
            throw ValidationError("--seeds must be between 1 and 10000, got \(seeds)")
        }
        if let jobs, !(1...256).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and 256, got \(jobs)")
        }
        if !(0.1...86_400).contains(itemTimeout) {
            throw ValidationError("--item-timeout must be between 0.1 and 86400 seconds, got \(itemTimeout)")
        }
        if verbose, !list {
            throw ValidationError("--verbose applies to --list only")
        }
        if perfettoWindow != nil, perfetto == nil {
            throw ValidationError("--perfetto-window needs --perfetto")
        }
        _ = try perfettoWindowRange
        if let perfettoLimit {
            guard perfetto != nil else { throw ValidationError("--perfetto-limit needs --perfetto") }
            guard perfettoLimit >= 1 else { throw ValidationError("--perfetto-limit must be at least 1, got \(perfettoLimit)") }
        }
        if (isolatedItem == nil) != (isolatedResult == nil) {
            throw ValidationError("--isolated-item and --isolated-result go together")
        }
    }

    /// `--perfetto-window A:B` as nanoseconds (nil when not given).
    package var perfettoWindowRange: Range<Int64>? {
        get throws {
            guard let text = perfettoWindow else { return nil }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = try? decimalArgument(String(parts[0])), let b = try? decimalArgument(String(parts[1])),
                a >= 0, b > a, b <= 1e9
            else {
                throw ValidationError("--perfetto-window must be A:B seconds with 0 <= A < B <= 1e9, got '\(text)'")
            }
            return Int64(a * 1e9)..<Int64(b * 1e9)
        }
    }

    /// `--jobs`, or one per core.
    package var effectiveJobs: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// The matrix the user asked for, for a workload to resolve against its catalogue.
    package var selection: MatrixSelection {
        MatrixSelection(scenarios: scenarios, variants: variants, firstSeed: seed, seedCount: seeds, quick: quick)
    }

    /// `--scenario a,b --scenario c` → `[a, b, c]`.
    package var scenarios: [String] { Self.splitList(scenario) }
    package var variants: [String] { Self.splitList(variant) }

    /// `a,b --flag c` → `[a, b, c]`: every list-valued flag of every bench-* reads this way.
    package static func splitList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    /// Checks every requested name against what exists, naming the flag and the known values.
    package func resolve<T>(_ requested: [String], flag: String, from all: [T], name: (T) -> String) throws -> [T] {
        try MatrixSelection.resolve(requested, flag: flag, from: all, name: name)
    }

    /// The seeds for this run: `seed, seed+1, …`.
    package func seedList(default count: Int) -> [UInt64] { selection.seeds(default: count) }
}

/// What to print on standard output.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, csv, json
}
