import ArgumentParser
import Foundation

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

    @Option(name: .long, help: ArgumentHelp("Folder for <workload>.csv and <workload>.json (default: a new folder under results/runs/).", valueName: "dir"))
    package var output: String?

    @Option(name: .long, help: "What to print on stdout: table, csv or json.")
    package var format: OutputFormat = .table

    @Flag(name: .long, help: "A short run: fewer seeds and shorter scenarios, for a smoke test.")
    package var quick = false

    @Flag(name: .long, help: "List the scenarios and variants, then exit.")
    package var list = false

    @Flag(name: .long, help: "No progress bar and no messages on stderr (errors still print).")
    package var quiet = false

    @Option(name: .long, help: ArgumentHelp("Run only part I of N of the matrix (1-based), e.g. 2/4; the N parts are disjoint and cover it.", valueName: "I/N"))
    package var shard: ShardSpec?

    package init() {}

    package func validate() throws {
        if let seeds, !(1...10_000).contains(seeds) {
            throw ValidationError("--seeds must be between 1 and 10000, got \(seeds)")
        }
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
        guard !requested.isEmpty else { return all }
        return try requested.map { wanted in
            guard let found = all.first(where: { name($0) == wanted }) else {
                throw BenchFailure.usage("unknown \(flag) '\(wanted)'; known: \(all.map(name).joined(separator: ", "))")
            }
            return found
        }
    }

    /// The seeds for this run: `seed, seed+1, …`.
    package func seedList(default count: Int) -> [UInt64] {
        let k = seeds ?? (quick ? 1 : count)
        return (0..<UInt64(k)).map { seed &+ $0 }
    }
}

/// What to print on standard output.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, csv, json
}
