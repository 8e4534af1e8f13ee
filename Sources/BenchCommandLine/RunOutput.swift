import Foundation
import Measurement
import Records

/// Stamps a workload's observations with the run's identity and writes them out.
///
/// Shared by every workload so that all of them produce the same files, the same stdout formats
/// and the same messages.
package struct RunOutput {
    package let workload: String
    package let runID: String
    package let folder: ResultsFolder
    package let options: CommonOptions
    package let host = HostInfo.current.hostname
    /// The host's 1-minute load average when the run started (`RunMetadata.loadAverage1mStart`).
    package let loadAtStart = HostLoad.oneMinute()
    /// The records written so far, streamed to the folder as they are added (nothing is kept per
    /// record: a run's memory does not grow with its seeds). Opened by `begin(factorNames:)`.
    package private(set) var stream: ResultsStream?

    /// Creates the run id and prepares the output folder, failing before any measurement if it
    /// cannot be written.
    package init(workload: String, options: CommonOptions) throws {
        self.workload = workload
        self.options = options
        self.runID = Self.makeRunID(workload: workload)
        self.folder = ResultsFolder(path: options.output ?? ResultsFolder.defaultPath(runID: runID))
        do { try folder.prepare(workload: workload) } catch { throw BenchFailure.output(error.description) }
    }

    /// Opens the record stream once the workload's factor columns are known.
    package mutating func begin(factorNames: [String]) throws {
        do { stream = try ResultsStream(folder: folder, workload: workload, factorNames: factorNames) } catch {
            throw BenchFailure.output(error.description)
        }
    }

    static func makeRunID(workload: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var rng = SystemRandomNumberGenerator()
        let suffix = String(UInt16.random(in: 0...UInt16.max, using: &rng), radix: 16)
        return "\(workload)-\(formatter.string(from: Date()))-\(suffix)"
    }

    package static func utcTimestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }

    /// Adds labelled groups of observations, in order, each stamped with its variant's origin.
    package mutating func add(_ groups: [LabelledObservations], origins: [String: VariantOrigin] = [:]) throws {
        for g in groups {
            try add(
                g.observations,
                scenario: g.scenario,
                variant: g.variant,
                origin: VariantOrigin.of(g.variant, in: origins).rawValue,
                mode: g.mode,
                seed: g.seed,
                repetition: g.repetition,
                factors: g.factors
            )
        }
    }

    /// Adds one (scenario, variant, repetition)'s observations.
    package mutating func add(
        _ observations: [Observation],
        scenario: String,
        variant: String,
        origin: String = "",
        mode: String,
        seed: UInt64,
        repetition: Int,
        factors: [String: String] = [:]
    ) throws {
        guard stream != nil else { preconditionFailure("RunOutput.add before begin(factorNames:)") }
        let records = observations.map { o in
            ResultRecord(
                runID: runID,
                workload: workload,
                scenario: scenario,
                variant: variant,
                mode: mode,
                seed: seed,
                repetition: repetition,
                metric: o.metric,
                value: o.value,
                unit: o.unit,
                host: host,
                factors: factors,
                origin: origin
            )
        }
        do { try stream!.add(records) } catch { throw BenchFailure.output(error.description) }
    }

    /// Writes the CSV and JSON, prints stdout in the requested format, and says where they went.
    package mutating func finish(
        parameters: [String: JSONValue],
        randomStreamVersion: Int = 1,
        comparisons: [Comparison] = [],
        notes: [String] = [],
        complete: Bool = true,
        plannedItems: Int? = nil,
        completedItems: Int? = nil,
        table: () -> String
    ) throws {
        guard var stream else { preconditionFailure("RunOutput.finish before begin(factorNames:)") }
        let document: RunDocument
        do {
            document = RunDocument(
                runID: runID,
                workload: workload,
                createdUTC: Self.utcTimestamp(),
                metadata: .current(parameters: parameters, randomStreamVersion: randomStreamVersion, loadAtStart: loadAtStart),
                factorNames: stream.factorNames,
                records: [],
                summaries: try stream.summaries(),
                comparisons: comparisons,
                notes: notes,
                complete: complete,
                plannedItems: plannedItems,
                completedItems: completedItems
            )
            try stream.write(document)
        } catch let error as AtomicFile.WriteError {
            throw BenchFailure.output(error.description)
        } catch {
            throw BenchFailure.output("cannot write \(folder.path): \(error)")
        }
        self.stream = stream
        switch options.format {
        case .table:
            print(table(), terminator: "")
            for note in notes { print("note: \(note)") }
        case .csv:
            try stream.printCSV()
        case .json:
            fflush(nil)
            try SpoolFile.copyToStandardOutput(path: folder.jsonPath(workload: workload))
            print("")
        }
        if !options.quiet {
            FileHandle.standardError.write(
                Data("results: \(folder.csvPath(workload: workload)) and \(folder.jsonPath(workload: workload))\n".utf8)
            )
        }
    }

    /// The summaries of the records so far (for the report, before `finish`).
    package mutating func summaries() throws -> [SummaryRow] {
        guard stream != nil else { return [] }
        do { return try stream!.summaries() } catch { throw BenchFailure.output("cannot read back the run's values: \(error)") }
    }
}
