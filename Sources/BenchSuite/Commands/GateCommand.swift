import ArgumentParser
import BenchCommandLine
import Foundation
import Measurement
import Verdicts

extension Threshold.Kind: ExpressibleByArgument {}

/// `bench-gate`: compares a results folder with the committed baseline and the thresholds.
package struct GateCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-gate",
        abstract: "Check a results folder against the thresholds and the committed baseline.",
        discussion: """
            Deterministic (virtual-time) values must equal the baseline's exactly; live values of the \
            gated hardware metrics are judged by the rule pb-analysis compare also uses (pb-verdict-3, \
            docs/analysis.md: Mann-Whitney per cell, Benjamini-Hochberg over all live cells, a \
            Hodges-Lehmann change beyond the metric's tolerance; run medians with 5+ runs a side, \
            otherwise repetitions against the A/A noise floor of --noise-floor) with the baseline when \
            both were measured on the same CPU (vendor, family, model, stepping, microcode), or with \
            --ab-base, a base commit's runs from the same job (A/B mode). A threshold, hardware metric or \
            baseline row that selects no row of a workload in the results is an input error \
            unless the thresholds file marks it "optional" with a reason; items that failed \
            in their own process are listed and fail the gate. Writes gate.json and \
            gate-summary.md into the results folder and prints the summary. \
            Exit codes: 0 pass, 1 regression, 2 usage or input error, 3 baseline missing or incompatible.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The results folders to check (each holds <workload>.json and .csv); gate.json goes into the first.",
            valueName: "results"
        )
    )
    var folders: [String] = []

    var results: String { folders[0] }

    package func validate() throws {
        if listWorkloads {
            guard folders.isEmpty else { throw ValidationError("--list-workloads takes no results folder (got \(folders[0]))") }
            return
        }
        guard !folders.isEmpty else { throw ValidationError("give at least one results folder") }
        if updateBaseline, !abBase.isEmpty {
            throw ValidationError("--update-baseline records a baseline; it cannot be combined with --ab-base")
        }
    }

    @Option(help: "The baseline folder.")
    var baseline = "results/baseline"

    @Option(help: "The thresholds file.")
    var thresholds = "results/thresholds.json"

    @Option(
        name: .customLong("noise-floor"),
        help: ArgumentHelp(
            "A/A noise floors per CPU and metric (used when a side has fewer than 5 runs; default results/noise-floor.json, none if absent).",
            valueName: "file"
        )
    )
    var noiseFloor: String?

    @Option(
        name: .customLong("ab-base"),
        help: ArgumentHelp(
            "A/B mode: a results folder of the base commit measured in the same job (repeat for several rounds); hardware metrics are compared with it instead of the baseline.",
            valueName: "folder"
        )
    )
    var abBase: [String] = []

    @Flag(name: .customLong("no-baseline"), help: "Check the thresholds only (and the A/B base, if given).")
    var noBaseline = false

    @Flag(
        name: .customLong("update-baseline"),
        help:
            "Deliberately replace the baseline with these results (after showing what changes); records a first one where --baseline holds none."
    )
    var updateBaseline = false

    @Option(help: "Check only deterministic or only hardware thresholds (default: both).")
    var only: Threshold.Kind?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .customLong("list-workloads"), help: "Print the suite's workloads (the registry every list derives from) and exit.")
    var listWorkloads = false

    @Flag(help: "With --list-workloads: print them as JSON.")
    var json = false

    package func run() throws {
        if listWorkloads { return print(try Self.workloadListing(json: json), terminator: "") }
        do {
            try check()
        } catch let error as GateError {
            throw BenchFailure(message: error.message, exitCode: error.exitCode)
        }
    }

    func check() throws {
        var gate = GateRun(folders: folders)
        (gate.baseline, gate.thresholds, gate.abBase) = (baseline, thresholds, abBase)
        (gate.noiseFloor, gate.noiseFloorNamed) = (noiseFloor ?? gate.noiseFloor, noiseFloor != nil)
        (gate.noBaseline, gate.updateBaseline, gate.only, gate.quiet) = (noBaseline, updateBaseline, only, quiet)
        let verdict = try gate.run()
        if !quiet { print(verdict.summaryMarkdown, terminator: "") }
        if updateBaseline {
            if !quiet { print("\nBaseline \(baseline) replaced with \(results). Review the diff above and commit it.") }
            return
        }
        if verdict.exitCode != 0 { throw ExitCode(verdict.exitCode) }
    }
}
