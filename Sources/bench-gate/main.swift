import ArgumentParser
import BenchCommandLine
import Foundation
import Measurement

extension Threshold.Kind: ExpressibleByArgument {}

/// `bench-gate`: compares a results folder with the committed baseline and the thresholds.
struct BenchGate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-gate",
        abstract: "Check a results folder against the thresholds and the committed baseline.",
        discussion: """
        Deterministic (virtual-time) values must equal the baseline's exactly; live values of the \
        gated hardware metrics are compared over repetitions (one-sided Mann-Whitney U at the \
        metric's alpha, and a median change beyond its tolerance). Writes gate.json and \
        gate-summary.md into the results folder and prints the summary. \
        Exit codes: 0 pass, 1 regression, 2 usage or input error, 3 baseline missing or incompatible.
        """
    )

    @Argument(help: ArgumentHelp("The results folders to check (each holds <workload>.json and .csv); gate.json goes into the first.", valueName: "results"))
    var folders: [String]

    var results: String { folders[0] }

    func validate() throws {
        guard !folders.isEmpty else { throw ValidationError("give at least one results folder") }
    }

    @Option(help: "The baseline folder.")
    var baseline = "results/baseline"

    @Option(help: "The thresholds file.")
    var thresholds = "results/thresholds.json"

    @Flag(name: .customLong("no-baseline"), help: "Check the thresholds only.")
    var noBaseline = false

    @Flag(name: .customLong("update-baseline"), help: "Deliberately replace the baseline with these results (after showing what changes).")
    var updateBaseline = false

    @Option(help: "Check only deterministic or only hardware thresholds (default: both).")
    var only: Threshold.Kind?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        do {
            try check()
        } catch let error as GateError {
            throw BenchFailure(message: error.message, exitCode: error.exitCode)
        }
    }

    func check() throws {
        let file = try ThresholdFileReader.read(path: thresholds)
        let first = try ResultsSet.load(path: results)
        var current = first
        for extra in folders.dropFirst() { current.documents += try ResultsSet.load(path: extra).documents }
        var selected = file.thresholds.filter { only == nil || $0.kind == only }
        // Hardware numbers from a debug build mean nothing: skip those thresholds, and say so.
        let debugWorkloads = Set(current.documents.filter { $0.metadata.buildConfiguration == "debug" }.map(\.workload))
        var outcomes: [ThresholdOutcome] = []
        selected.removeAll { t in
            guard t.kind == .hardware, debugWorkloads.contains(t.workload) else { return false }
            outcomes.append(ThresholdOutcome(id: t.id, kind: t.kind, workload: t.workload, scenario: t.scenario, variant: t.variant,
                                             status: .skipped, detail: "\(t.workload) results come from a debug build", reason: t.reason))
            return true
        }
        outcomes = try ThresholdCheck.evaluate(selected, on: current.records, source: thresholds) + outcomes
        var comparison: BaselineComparison?
        if !noBaseline {
            let base = try ResultsSet.load(path: baseline, asBaseline: true)
            let missing = base.workloads.subtracting(current.workloads)
            if !missing.isEmpty, !updateBaseline, !quiet {
                FileHandle.standardError.write(Data("bench-gate: note: baseline workloads not in the results: \(missing.sorted().joined(separator: ", "))\n".utf8))
            }
            comparison = BaselineComparison.compare(current: current.records, baseline: base.records, hardwareMetrics: file.hardwareMetrics)
        }
        let verdict = GateVerdict(results: results, baseline: noBaseline ? nil : baseline, thresholds: outcomes, comparison: comparison)
        let folder = results as NSString
        do {
            try AtomicFile.write(try verdict.encoded(), to: folder.appendingPathComponent("gate.json"))
            try AtomicFile.write(verdict.summaryMarkdown, to: folder.appendingPathComponent("gate-summary.md"))
        } catch let error as AtomicFile.WriteError {
            throw BenchFailure(message: error.description, exitCode: 2)
        }
        if !quiet { print(verdict.summaryMarkdown, terminator: "") }
        if updateBaseline {
            try replaceBaseline(with: first)
            if !quiet { print("\nBaseline \(baseline) replaced with \(results). Review the diff above and commit it.") }
            return
        }
        if verdict.exitCode != 0 { throw ExitCode(verdict.exitCode) }
    }

    /// Writes the first folder's run documents and their CSVs into the baseline folder, each file
    /// atomically; baseline files of workloads not in these results are left as they are.
    func replaceBaseline(with first: ResultsSet) throws {
        do {
            try FileManager.default.createDirectory(atPath: baseline, withIntermediateDirectories: true)
        } catch {
            throw BenchFailure(message: "cannot create \(baseline): \(error.localizedDescription)", exitCode: 2)
        }
        let target = ResultsFolder(path: baseline)
        for doc in first.documents {
            do {
                try target.write(doc)
            } catch {
                throw BenchFailure(message: error.description, exitCode: 2)
            }
        }
    }
}

BenchMain.run(BenchGate.self, usageExitCode: 2)
