import Foundation

/// A run's CSV and JSON results written as the records arrive, so that a run of a thousand seeds
/// holds one item's records in memory, not the run's.
///
/// Each record goes, as it is added, to three spools beside the results: its CSV row, its JSON
/// object (encoded by the same encoder, with the same options, as `RunDocument.encoded()`), and its
/// value for the summaries (`SummaryAccumulator`). `write` then stages both files from the spools
/// and the run's document (without records) and commits them as `ResultsFolder.write` does: the
/// bytes are those `ResultsFolder.write` would have written for the whole document.
package struct ResultsStream {
    package let folder: ResultsFolder
    package let workload: String
    package let factorNames: [String]
    private let csvRows: SpoolFile
    private let jsonRecords: SpoolFile
    private var values: SummaryAccumulator
    private let encoder: JSONEncoder
    /// Records added so far.
    package private(set) var recordCount = 0

    package init(folder: ResultsFolder, workload: String, factorNames: [String], summaryBudget: Int = 1 << 20) throws(AtomicFile.WriteError)
    {
        self.folder = folder
        self.workload = workload
        self.factorNames = factorNames
        csvRows = try SpoolFile.anonymous(in: folder.path, name: "\(workload).csv")
        jsonRecords = try SpoolFile.anonymous(in: folder.path, name: "\(workload).json")
        values = try SummaryAccumulator(spoolIn: folder.path, name: "\(workload).values", budget: summaryBudget)
        encoder = RunDocument.encoder()
    }

    /// Writes `records` (one item's, say) to the spools.
    package mutating func add(_ records: [ResultRecord]) throws(AtomicFile.WriteError) {
        guard !records.isEmpty else { return }
        for r in records {
            try csvRows.append(CSVWriter.fields(r, factorNames: factorNames).map(CSVWriter.escape).joined(separator: ","))
            try csvRows.append("\n")
            try values.add(r)
        }
        let array: Data
        do { array = try encoder.encode(records) } catch {
            throw AtomicFile.WriteError(path: folder.jsonPath(workload: workload), reason: "\(error)")
        }
        // `[`, the objects at indent 2, `]`: in the document they sit at indent 4.
        let lines = String(decoding: array, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if recordCount > 0 { try jsonRecords.append(",\n") }
        for (i, line) in lines.dropFirst().dropLast().enumerated() {
            if i > 0 { try jsonRecords.append("\n") }
            if !line.isEmpty { try jsonRecords.append("  ") }
            try jsonRecords.append(line.utf8)
        }
        recordCount += records.count
    }

    /// `Statistics.summarize` of every record added (read back from the spool).
    package mutating func summaries() throws -> [SummaryRow] { try values.summaries() }

    /// The most values the summaries held at once.
    package var peakHeldValues: Int { values.peakHeldValues }

    /// Writes `<workload>.csv` and `<workload>.json`: `document` with the streamed records in its
    /// `records` (its own `records` must be empty).
    package func write(_ document: RunDocument) throws(AtomicFile.WriteError) {
        let jsonPath = folder.jsonPath(workload: workload)
        let text: String
        do { text = String(decoding: try document.encoded(), as: UTF8.self) } catch {
            throw AtomicFile.WriteError(path: jsonPath, reason: "\(error)")
        }
        let empty = "\n  \"records\" : [\n\n  ]"
        guard document.records.isEmpty, let hole = text.range(of: empty) else {
            throw AtomicFile.WriteError(path: jsonPath, reason: "the document's records are not where the stream expects them")
        }
        do {
            let csv = try SpoolFile.staged(to: folder.csvPath(workload: workload))
            try csv.append(CSVWriter.header(factorNames: factorNames).joined(separator: ",") + "\n")
            try csv.append(contentsOf: csvRows)
            let json = try SpoolFile.staged(to: jsonPath)
            if recordCount == 0 {
                try json.append(text)
            } else {
                try json.append(text[..<hole.lowerBound] + "\n  \"records\" : [\n")
                try json.append(contentsOf: jsonRecords)
                try json.append("\n  ]" + text[hole.upperBound...])
            }
            // As `ResultsFolder.write`: both staged in full, the JSON put in place last.
            let stagedCSV = try csv.finish()
            let stagedJSON: AtomicFile.Staged
            do { stagedJSON = try json.finish() } catch {
                stagedCSV.discard()
                throw error
            }
            do { try stagedCSV.commit() } catch {
                stagedJSON.discard()
                throw error
            }
            try stagedJSON.commit()
        } catch let error as AtomicFile.WriteError {
            throw error
        } catch {
            throw AtomicFile.WriteError(path: jsonPath, reason: "\(error)")
        }
    }

    /// The CSV as `--format csv` prints it: the header, then the streamed rows.
    package func printCSV() throws {
        fflush(nil)
        FileHandle.standardOutput.write(Data((CSVWriter.header(factorNames: factorNames).joined(separator: ",") + "\n").utf8))
        try csvRows.copyToStandardOutput()
    }
}
