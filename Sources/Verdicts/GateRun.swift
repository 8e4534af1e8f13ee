import Foundation
import Measurement
import Records

/// One bench-gate invocation: load and validate the results (and the baseline or the A/B base),
/// evaluate the thresholds, compare with the reference, write `gate.json` and `gate-summary.md`,
/// and replace the baseline when asked. The executable only parses options and prints.
package struct GateRun {
    package var folders: [String]
    package var baseline = "results/baseline"
    package var thresholds = "results/thresholds.json"
    /// A/B mode: results folders of the base commit measured in the same job.
    package var abBase: [String] = []
    /// A/A noise floors (`VerdictRule`); a missing file means none, unless the user named it.
    package var noiseFloor = "results/noise-floor.json"
    package var noiseFloorNamed = false
    package var noBaseline = false
    package var updateBaseline = false
    package var only: Threshold.Kind?
    package var quiet = false

    package init(folders: [String]) { self.folders = folders }

    var results: String { folders[0] }

    /// Runs the gate and returns its verdict (already written to the first results folder).
    package func run() throws -> GateVerdict {
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
            outcomes.append(.skipped(t, detail: "\(t.workload) results come from a debug build"))
            return true
        }
        let failed = current.failedItems
        let failedWorkloads = Set(failed.map(\.workload))
        outcomes =
            try ThresholdCheck.evaluate(selected, on: current.records, source: thresholds, failedWorkloads: failedWorkloads) + outcomes
        var comparison: BaselineComparison?
        var selectionNotes: [String] = []
        if !abBase.isEmpty || !noBaseline {
            selectionNotes = try SelectionCheck.hardwareMetrics(
                file.hardwareMetrics,
                current: current.records,
                skipping: failedWorkloads,
                source: thresholds
            )
        }
        let hardwareWorkloads = Set(file.hardwareMetrics.map(\.workload))
        let floors = try VerdictRule.loadFloors(path: noiseFloor, required: noiseFloorNamed)
        let learned = VerdictRule.loadLearnedAt(path: noiseFloor)
        let firstBaseline = updateBaseline && !noBaseline && Self.holdsNoRunDocument(baseline)
        let inputs = ComparisonInputs(
            current: current,
            expecting: expecting,
            file: file,
            failedWorkloads: failedWorkloads,
            selectionNotes: selectionNotes,
            hardwareWorkloads: hardwareWorkloads,
            floors: floors,
            learned: learned
        )
        if !abBase.isEmpty {
            comparison = try abComparison(inputs)
        } else if !noBaseline, !firstBaseline {
            comparison = try baselineComparison(inputs)
        }
        if updateBaseline, !failed.isEmpty {
            throw GateError.input(
                "\(results): \(failed.count) item\(failed.count == 1 ? "" : "s") failed (\(failed[0].workload) \(failed[0].item)): a baseline is recorded from complete results only"
            )
        }
        let verdict = GateVerdict(
            results: results,
            baseline: noBaseline || firstBaseline ? (abBase.isEmpty ? nil : abBase.joined(separator: ", ")) : baseline,
            thresholds: outcomes,
            comparison: comparison,
            failedItems: failed,
            firstBaseline: firstBaseline ? baseline : nil
        )
        let folder = results as NSString
        do {
            try AtomicFile.write(try verdict.encoded(), to: folder.appendingPathComponent("gate.json"))
            try AtomicFile.write(verdict.summaryMarkdown, to: folder.appendingPathComponent("gate-summary.md"))
        } catch let error as AtomicFile.WriteError {
            throw BenchFailure(message: error.description, exitCode: 2)
        }
        if updateBaseline { try replaceBaseline(with: first) }
        return verdict
    }

    /// What the gate has read before it compares the results with a reference.
    struct ComparisonInputs {
        let current: ResultsSet
        let expecting: ResultsSet.Expectations
        let file: ThresholdFile
        /// Workloads with a failed item: their missing rows are not reported again.
        let failedWorkloads: Set<String>
        let selectionNotes: [String]
        /// The workloads the hardware metrics name.
        let hardwareWorkloads: Set<String>
        let floors: [String: Double]
        let learned: VerdictRule.LearnedAt
    }

    /// A/B: hardware metrics against the base run of the same job (`abBase`), deterministic ones
    /// against the committed baseline.
    func abComparison(_ inputs: ComparisonInputs) throws -> BaselineComparison {
        let (current, expecting, file) = (inputs.current, inputs.expecting, inputs.file)
        let (failedWorkloads, selectionNotes, hardwareWorkloads) = (inputs.failedWorkloads, inputs.selectionNotes, inputs.hardwareWorkloads)
        let (floors, learned) = (inputs.floors, inputs.learned)
        // A/B: hardware against the base run of the same job; deterministic against the baseline.
        let base = try abBase.map { folder throws(GateError) in try ResultsSet.load(path: folder, role: .baseline, expecting: expecting)
        }
        let baseDocuments = base.flatMap(\.documents)
        try SelectionCheck.referenceCells(
            current: current.records,
            reference: baseDocuments.flatMap(\.records),
            metrics: file.hardwareMetrics,
            skipping: failedWorkloads,
            referenceName: "A/B base"
        )
        let fit = HardwareComparability.check(
            current: current.documents,
            reference: baseDocuments,
            workloads: hardwareWorkloads,
            referenceName: "A/B base",
            sameJob: true
        )
        let committedSet = noBaseline ? nil : try loadBaseline(current: current, expecting: expecting)
        let committed = committedSet?.records ?? []
        if !updateBaseline {
            try StreamVersionCheck.check(current: current.documents, reference: committedSet?.documents ?? [], referencePath: baseline)
            try SelectionCheck.baselineRows(
                current: current.records,
                reference: committed,
                skipping: failedWorkloads,
                referenceName: "baseline"
            )
        }
        return BaselineComparison.compare(
            current: current.records,
            baseline: committed,
            hardwareMetrics: file.hardwareMetrics,
            hardwareBaseline: baseDocuments.flatMap(\.records),
            hardwareReference: "A/B base (\(abBase.count) folder\(abBase.count == 1 ? "" : "s"), same job)",
            notComparable: fit.notComparable,
            notes: selectionNotes + fit.notes
                + HostLoadCheck.notes(
                    current: current.documents,
                    reference: baseDocuments,
                    workloads: hardwareWorkloads,
                    referenceName: "A/B base"
                ),
            floors: floors,
            fingerprints: Self.fingerprints(current.documents + baseDocuments),
            noise: VerdictRule.PairNoise.of(
                current: current.documents,
                reference: baseDocuments,
                workloads: hardwareWorkloads,
                learned: learned
            )
        )
    }

    /// Everything against the committed baseline; the selection must match it unless the baseline
    /// is being replaced (replacing it is how a matrix changes on purpose: its diff is shown).
    func baselineComparison(_ inputs: ComparisonInputs) throws -> BaselineComparison {
        let (current, expecting, file) = (inputs.current, inputs.expecting, inputs.file)
        let (failedWorkloads, selectionNotes, hardwareWorkloads) = (inputs.failedWorkloads, inputs.selectionNotes, inputs.hardwareWorkloads)
        let (floors, learned) = (inputs.floors, inputs.learned)
        let base = try loadBaseline(current: current, expecting: expecting)
        if !updateBaseline {
            // Replacing the baseline is how a matrix changes on purpose: its diff is shown.
            try StreamVersionCheck.check(current: current.documents, reference: base.documents, referencePath: baseline)
            try SelectionCheck.baselineRows(
                current: current.records,
                reference: base.records,
                skipping: failedWorkloads,
                referenceName: "baseline"
            )
            try SelectionCheck.referenceCells(
                current: current.records,
                reference: base.records,
                metrics: file.hardwareMetrics,
                skipping: failedWorkloads,
                referenceName: "baseline"
            )
        }
        let fit = HardwareComparability.check(
            current: current.documents,
            reference: base.documents,
            workloads: hardwareWorkloads,
            referenceName: "baseline",
            sameJob: false
        )
        return BaselineComparison.compare(
            current: current.records,
            baseline: base.records,
            hardwareMetrics: file.hardwareMetrics,
            hardwareReference: "baseline",
            notComparable: fit.notComparable,
            notes: selectionNotes + fit.notes
                + HostLoadCheck.notes(
                    current: current.documents,
                    reference: base.documents,
                    workloads: hardwareWorkloads,
                    referenceName: "baseline"
                ),
            floors: floors,
            fingerprints: Self.fingerprints(current.documents + base.documents),
            noise: VerdictRule.PairNoise.of(
                current: current.documents,
                reference: base.documents,
                workloads: hardwareWorkloads,
                learned: learned
            )
        )
    }

    /// Per workload, its CPU when both sides name exactly one (the key of its noise floors).
    static func fingerprints(_ documents: [RunDocument]) -> [String: CPUIdentity] {
        Dictionary(grouping: documents, by: \.workload).compactMapValues { docs in
            let known = Set(docs.compactMap(\.metadata.host.fingerprint))
            return known.count == 1 ? known.first : nil
        }
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

    /// True when `path` does not exist or holds no run document: `--update-baseline` then records
    /// a first baseline there instead of comparing with one.
    static func holdsNoRunDocument(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return true }
        guard isDirectory.boolValue else { return false }  // a file: loading it says what is wrong
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return !names.contains { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.hasPrefix("gate") }
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
