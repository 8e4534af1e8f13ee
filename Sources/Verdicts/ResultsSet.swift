import Foundation
import Records

/// Every run document in a results folder (one per workload), validated before anything is gated.
///
/// The gate must never pass nothing: a folder whose documents are empty, interrupted, relabelled,
/// duplicated or out of step with their CSV is an input error, not a pass. A document whose only
/// gap is items that failed is loaded: the gate checks the rest and fails on the failures.
public struct ResultsSet: Sendable {
    /// Which side of a comparison a folder is on; it decides the exit code of its errors.
    public enum Role: Sendable {
        /// The results being gated: a broken folder is an input error (2).
        case results
        /// The committed baseline or an A/B base run: missing or incompatible is exit 3.
        case baseline
    }

    /// What the thresholds file knows, to check documents against (nil: no such checks).
    public struct Expectations: Sendable {
        /// Workloads the thresholds file names; a document of any other workload is refused.
        public var workloads: Set<String>
        /// Per workload, the scenarios some threshold or hardware metric gates (`*`: every one).
        public var gatedScenarios: [String: Set<String>]

        public init(_ file: ThresholdFile) {
            var gated: [String: Set<String>] = [:]
            for t in file.thresholds { gated[t.workload, default: []].insert(t.scenario) }
            for m in file.hardwareMetrics { gated[m.workload, default: []].insert(m.scenario ?? "*") }
            self.workloads = Set(gated.keys)
            self.gatedScenarios = gated
        }
    }

    public var path: String
    public var documents: [RunDocument]

    public var records: [ResultRecord] { documents.flatMap(\.records) }
    public var workloads: Set<String> { Set(documents.map(\.workload)) }
    /// Items that failed in documents that are otherwise whole (every other item finished).
    public var failedItems: [FailedItem] { documents.flatMap(FailedItem.listed(in:)) }

    /// Loads and validates `<folder>/*.json` that are run documents.
    public static func load(path: String, role: Role = .results, expecting: Expectations? = nil) throws(GateError) -> ResultsSet {
        func fail(_ message: String) -> GateError { role == .baseline ? .baseline(message) : .input(message) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw fail("\(path): no such results folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var documents: [RunDocument] = []
        var stems: Set<String> = []
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") && !name.hasPrefix("gate") {
            let file = (path as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file) else { throw fail("\(file): cannot be read") }
            // Check the version before decoding the rest: another version may have another shape.
            struct Versioned: Decodable { var schema_version: Int? }
            guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
                throw fail("\(file): not valid JSON")
            }
            guard let version = versioned.schema_version else { continue }  // not a run document
            guard RunDocument.readableSchemaVersions.contains(version) else {
                throw fail(
                    "\(file): schema_version: \(version) is not one this tool reads (\(RunDocument.readableSchemaVersions.sorted().map(String.init).joined(separator: ", ")))"
                )
            }
            let document: RunDocument
            do { document = try RunDocument.decode(data) } catch {
                throw fail("\(file): not a valid run document: \(error)")
            }
            try validate(document, file: file, expecting: expecting, acceptingFailedItems: role == .results, fail: fail)
            let stem = String(name.dropLast(5))
            try ResultsCSVCheck.check(document, csvPath: (path as NSString).appendingPathComponent(stem + ".csv"), fail: fail)
            stems.insert(stem)
            documents.append(document)
        }
        // A results CSV without its JSON is half of an interrupted write, not something to ignore.
        for name in names where name.hasSuffix(".csv") && !stems.contains(String(name.dropLast(4))) {
            let file = (path as NSString).appendingPathComponent(name)
            if ResultsCSVCheck.isResultsTable(file) {
                throw fail("\(file): a results CSV without its JSON document (an interrupted write?)")
            }
        }
        guard !documents.isEmpty else { throw fail("\(path): no run documents (<workload>.json) in the folder") }
        try checkDuplicates(documents.flatMap(\.records), in: path, fail: fail)
        return ResultsSet(path: path, documents: documents)
    }

    /// `acceptingFailedItems`: results may have failed items (gated as failures); a reference may
    /// not, since a comparison with a cell that never ran means nothing.
    static func validate(
        _ d: RunDocument,
        file: String,
        expecting: Expectations?,
        acceptingFailedItems: Bool = true,
        fail: (String) -> GateError
    ) throws(GateError) {
        // A run whose items failed (each in its own process) wrote every other item: gated as
        // such, its failures reported. Only a run that stopped short (interrupted) is refused.
        if !d.complete, FailedItem.accountsForIncompleteness(of: d), !acceptingFailedItems {
            throw fail("\(file): complete: false: \(FailedItem.listed(in: d).count) item(s) failed; a reference must be complete")
        }
        guard d.complete || FailedItem.accountsForIncompleteness(of: d) else {
            let items = d.completedItems.map { done in d.plannedItems.map { " (\(done) of \($0) items ran)" } ?? "" } ?? ""
            throw fail("\(file): complete: false: the run was interrupted\(items); re-run it, the gate refuses partial results")
        }
        guard !d.records.isEmpty else { throw fail("\(file): records: the document holds no records") }
        if let other = d.records.first(where: { $0.workload != d.workload }) {
            throw fail("\(file): records: a record of workload '\(other.workload)' in the \(d.workload) document")
        }
        guard let expecting else { return }
        guard expecting.workloads.contains(d.workload) else {
            throw fail(
                "\(file): workload: '\(d.workload)' is not a workload the thresholds file knows (\(expecting.workloads.sorted().joined(separator: ", ")))"
            )
        }
        // A shard declares the whole matrix but holds only its share of it.
        if let shard = d.metadata.parameters["shard"], shard != .null { return }
        // The scenarios of failed items may have no records; the failures are reported instead.
        guard FailedItem.listed(in: d).isEmpty else { return }
        let gated = expecting.gatedScenarios[d.workload] ?? []
        let present = Set(d.records.map(\.scenario))
        for scenario in declaredScenarios(d) where gated.contains("*") || gated.contains(scenario) {
            guard present.contains(scenario) else {
                throw fail("\(file): scenario '\(scenario)' is declared in metadata.parameters but has no records")
            }
        }
    }

    /// The scenarios a document says it ran: `parameters.scenarios` (names, or objects with a
    /// `name`) or, for workloads whose scenarios are operations, `parameters.operations`.
    static func declaredScenarios(_ d: RunDocument) -> [String] {
        var names: [String] = []
        for key in ["scenarios", "operations"] {
            guard case .array(let items)? = d.metadata.parameters[key] else { continue }
            for item in items {
                switch item {
                case .string(let s): names.append(s)
                case .object(let o): if case .string(let s)? = o["name"] { names.append(s) }
                default: break
                }
            }
        }
        return names
    }

    /// One cell measured twice in one folder is an error whatever the values: which copy is right
    /// cannot be known, and "the first one wins" would hide a corrupted or doubled file.
    static func checkDuplicates(_ records: [ResultRecord], in path: String, fail: (String) -> GateError) throws(GateError) {
        var seen: [CellKey: Double] = [:]
        for r in records {
            let key = CellKey(r)
            if let first = seen[key] {
                throw fail(
                    "\(path): duplicate cell \(key.text): recorded twice (\(CSVWriter.format(first)) and \(CSVWriter.format(r.value)))"
                )
            }
            seen[key] = r.value
        }
    }

    /// Deterministic values found in several folders of one gate run must agree (the same
    /// virtual-time cell run twice gives the same value, or something is wrong).
    public static func checkConsistent(_ sets: [ResultsSet]) throws(GateError) {
        var seen: [CellKey: (Double, String)] = [:]
        for set in sets {
            for r in set.records where r.mode == "sim" {
                let key = CellKey(r, includingRun: false)
                if let (value, where_) = seen[key], value != r.value, !(value.isNaN && r.value.isNaN) {
                    throw GateError.input(
                        "\(set.path): cell \(key.text) is \(CSVWriter.format(r.value)) here but \(CSVWriter.format(value)) in \(where_)"
                    )
                }
                seen[key] = (r.value, set.path)
            }
        }
    }
}

/// A record's identity: everything but its value (and unit/host, which follow from it).
struct CellKey: Hashable {
    var run, workload, scenario, variant, mode, metric: String
    var seed: UInt64
    var repetition: Int
    var factors: [String: String]

    init(_ r: ResultRecord, includingRun: Bool = true) {
        run = includingRun ? r.runID : ""
        workload = r.workload
        scenario = r.scenario
        variant = r.variant
        mode = r.mode
        metric = r.metric
        seed = r.seed
        repetition = r.repetition
        factors = r.factors
    }

    var text: String {
        let f = factors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "\(workload)/\(scenario)/\(variant) \(mode) seed \(seed) repetition \(repetition)\(f.isEmpty ? "" : " [\(f)]") \(metric)"
    }
}
