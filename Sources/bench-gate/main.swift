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
            metric's alpha, and a median change beyond its tolerance) with the baseline when both were \
            measured on the same CPU (vendor, family, model, stepping, microcode), or with --ab-base, \
            a base commit's run from the same job (A/B mode). Writes gate.json and \
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
    var folders: [String]

    var results: String { folders[0] }

    func validate() throws {
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
        name: .customLong("ab-base"),
        help: ArgumentHelp(
            "A/B mode: a results folder of the base commit measured in the same job (repeat for several rounds); hardware metrics are compared with it instead of the baseline.",
            valueName: "folder"
        )
    )
    var abBase: [String] = []

    @Flag(name: .customLong("no-baseline"), help: "Check the thresholds only (and the A/B base, if given).")
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
        let expecting = ResultsSet.Expectations(file)
        let sets = try folders.map { folder throws(GateError) in try ResultsSet.load(path: folder, expecting: expecting) }
        try ResultsSet.checkConsistent(sets)
        let first = sets[0]
        var current = first
        for extra in sets.dropFirst() { current.documents += extra.documents }
        var selected = file.thresholds.filter { only == nil || $0.kind == only }
        // Hardware numbers from a debug build mean nothing: skip those thresholds, and say so.
        let debugWorkloads = Set(current.documents.filter { $0.metadata.buildConfiguration == "debug" }.map(\.workload))
        var outcomes: [ThresholdOutcome] = []
        selected.removeAll { t in
            guard t.kind == .hardware, debugWorkloads.contains(t.workload) else { return false }
            outcomes.append(
                ThresholdOutcome(
                    id: t.id,
                    kind: t.kind,
                    workload: t.workload,
                    scenario: t.scenario,
                    variant: t.variant,
                    status: .skipped,
                    detail: "\(t.workload) results come from a debug build",
                    reason: t.reason
                )
            )
            return true
        }
        outcomes = try ThresholdCheck.evaluate(selected, on: current.records, source: thresholds) + outcomes
        var comparison: BaselineComparison?
        let hardwareWorkloads = Set(file.hardwareMetrics.map(\.workload))
        if !abBase.isEmpty {
            // A/B: hardware against the base run of the same job; deterministic against the baseline.
            let base = try abBase.map { folder throws(GateError) in try ResultsSet.load(path: folder, role: .baseline, expecting: expecting)
            }
            let baseDocuments = base.flatMap(\.documents)
            let fit = HardwareComparability.check(
                current: current.documents,
                reference: baseDocuments,
                workloads: hardwareWorkloads,
                referenceName: "A/B base",
                sameJob: true
            )
            let committed = noBaseline ? [] : try loadBaseline(current: current, expecting: expecting).records
            comparison = BaselineComparison.compare(
                current: current.records,
                baseline: committed,
                hardwareMetrics: file.hardwareMetrics,
                hardwareBaseline: baseDocuments.flatMap(\.records),
                hardwareReference: "A/B base (\(abBase.count) folder\(abBase.count == 1 ? "" : "s"), same job)",
                notComparable: fit.notComparable,
                notes: fit.notes
            )
        } else if !noBaseline {
            let base = try loadBaseline(current: current, expecting: expecting)
            let fit = HardwareComparability.check(
                current: current.documents,
                reference: base.documents,
                workloads: hardwareWorkloads,
                referenceName: "baseline",
                sameJob: false
            )
            comparison = BaselineComparison.compare(
                current: current.records,
                baseline: base.records,
                hardwareMetrics: file.hardwareMetrics,
                hardwareReference: "baseline",
                notComparable: fit.notComparable,
                notes: fit.notes
            )
        }
        let verdict = GateVerdict(
            results: results,
            baseline: noBaseline ? (abBase.isEmpty ? nil : abBase.joined(separator: ", ")) : baseline,
            thresholds: outcomes,
            comparison: comparison
        )
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

    /// The committed baseline, validated like results (its errors exit 3), with a note on stderr
    /// when it holds workloads these results lack.
    func loadBaseline(current: ResultsSet, expecting: ResultsSet.Expectations) throws(GateError) -> ResultsSet {
        let base = try ResultsSet.load(path: baseline, role: .baseline, expecting: expecting)
        let missing = base.workloads.subtracting(current.workloads)
        if !missing.isEmpty, !updateBaseline, !quiet {
            FileHandle.standardError.write(
                Data("bench-gate: note: baseline workloads not in the results: \(missing.sorted().joined(separator: ", "))\n".utf8)
            )
        }
        return base
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
