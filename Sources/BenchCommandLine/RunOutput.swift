import Foundation
import Measurement

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
    package var records: [ResultRecord] = []

    /// Creates the run id and prepares the output folder, failing before any measurement if it
    /// cannot be written.
    package init(workload: String, options: CommonOptions) throws {
        self.workload = workload
        self.options = options
        self.runID = Self.makeRunID(workload: workload)
        self.folder = ResultsFolder(path: options.output ?? ResultsFolder.defaultPath(runID: runID))
        do { try folder.prepare(workload: workload) } catch { throw BenchFailure.output(error.description) }
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
    package mutating func add(_ groups: [LabelledObservations], origins: [String: VariantOrigin] = [:]) {
        for g in groups {
            add(
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
    ) {
        for o in observations {
            records.append(
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
            )
        }
    }

    /// Writes the CSV and JSON, prints stdout in the requested format, and says where they went.
    package func finish(
        factorNames: [String] = [],
        parameters: [String: JSONValue],
        comparisons: [Comparison] = [],
        notes: [String] = [],
        complete: Bool = true,
        plannedItems: Int? = nil,
        completedItems: Int? = nil,
        table: () -> String
    ) throws -> RunDocument {
        let document = RunDocument(
            runID: runID,
            workload: workload,
            createdUTC: Self.utcTimestamp(),
            metadata: .current(parameters: parameters),
            factorNames: factorNames,
            records: records,
            summaries: Statistics.summarize(records),
            comparisons: comparisons,
            notes: notes,
            complete: complete,
            plannedItems: plannedItems,
            completedItems: completedItems
        )
        do { try folder.write(document) } catch { throw BenchFailure.output(error.description) }
        switch options.format {
        case .table:
            print(table(), terminator: "")
            for note in notes { print("note: \(note)") }
        case .csv:
            print(CSVWriter.render(records, factorNames: factorNames), terminator: "")
        case .json:
            let data = (try? document.encoded()) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        }
        if !options.quiet {
            FileHandle.standardError.write(
                Data("results: \(folder.csvPath(workload: workload)) and \(folder.jsonPath(workload: workload))\n".utf8)
            )
        }
        return document
    }
}
