import Foundation

/// A run's CSV and JSON results written as the records arrive, so that a run of a thousand seeds
/// holds one item's records in memory, not the run's.
///
/// Each record goes, as it is added, to three spools beside the results: its CSV row, the record
/// itself (one compact JSON line), and its value for the summaries (`SummaryAccumulator`). Which
/// factor columns the JSON gives as numbers depends on every value of the run (`FactorTypes`), so
/// the stream notes what each column held as records arrive, and `write` encodes the records one
/// at a time, read back from their spool, with the encoder and column types `RunDocument.encoded()`
/// would use for the whole document. It then stages both files and commits them as
/// `ResultsFolder.write` does: the bytes are those `ResultsFolder.write` would have written.
package struct ResultsStream {
    package let folder: ResultsFolder
    package let workload: String
    package let factorNames: [String]
    private let csvRows: SpoolFile
    private let jsonRecords: SpoolFile
    private var values: SummaryAccumulator
    /// One record per line, factors as text: read back and encoded for the file by `write`.
    private let lineEncoder: JSONEncoder
    /// Factor columns that held a number (as the CSV spells it) / something else, so far.
    private var numberColumns: Set<String> = []
    private var textColumns: Set<String> = []
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
        lineEncoder = JSONEncoder()
        lineEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        lineEncoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    }

    /// Writes `records` (one item's, say) to the spools.
    package mutating func add(_ records: [ResultRecord]) throws(AtomicFile.WriteError) {
        for r in records {
            try csvRows.append(CSVWriter.fields(r, factorNames: factorNames).map(CSVWriter.escape).joined(separator: ","))
            try csvRows.append("\n")
            try values.add(r)
            for (name, value) in r.factors where !value.isEmpty {
                if FactorTypes.isNumber(value) { numberColumns.insert(name) } else { textColumns.insert(name) }
            }
            do { try jsonRecords.append(try lineEncoder.encode(r)) } catch let error as AtomicFile.WriteError { throw error } catch {
                throw AtomicFile.WriteError(path: folder.jsonPath(workload: workload), reason: "\(error)")
            }
            try jsonRecords.append("\n")
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
        // The column types of the whole document: every record's factors and the summaries'.
        var numbers = numberColumns
        var texts = textColumns
        for row in document.summaries {
            for (name, value) in row.factors where !value.isEmpty {
                if FactorTypes.isNumber(value) { numbers.insert(name) } else { texts.insert(name) }
            }
        }
        let encoder = RunDocument.encoder(numericColumns: document.schemaVersion >= 3 ? numbers.subtracting(texts) : [])
        let text: String
        do { text = String(decoding: try encoder.encode(document), as: UTF8.self) } catch {
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
                var first = true
                try forEachRecord { record in
                    // `[`, the object at indent 2, `]`: in the document it sits at indent 4.
                    let array = String(decoding: try encoder.encode([record]), as: UTF8.self)
                    let lines = array.split(separator: "\n", omittingEmptySubsequences: false)
                    if !first { try json.append(",\n") }
                    first = false
                    for (i, line) in lines.dropFirst().dropLast().enumerated() {
                        if i > 0 { try json.append("\n") }
                        if !line.isEmpty { try json.append("  ") }
                        try json.append(line.utf8)
                    }
                }
                try json.append("\n  ]" + text[hole.upperBound...])
            }
            // As `ResultsFolder.write`: both staged in full, the JSON put in place last.
            try csv.finish().commit(before: json.finish)
        } catch let error as AtomicFile.WriteError {
            throw error
        } catch {
            throw AtomicFile.WriteError(path: jsonPath, reason: "\(error)")
        }
    }

    /// Calls `body` with each record added, in order, read back one line at a time from the spool.
    private func forEachRecord(_ body: (ResultRecord) throws -> Void) throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var line: [UInt8] = []
        try jsonRecords.forEachChunk { chunk in
            for byte in chunk {
                if byte == UInt8(ascii: "\n") {
                    try body(try decoder.decode(ResultRecord.self, from: Data(line)))
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(byte)
                }
            }
        }
    }

    /// The CSV as `--format csv` prints it: the header, then the streamed rows.
    package func printCSV() throws {
        fflush(nil)
        FileHandle.standardOutput.write(Data((CSVWriter.header(factorNames: factorNames).joined(separator: ",") + "\n").utf8))
        try csvRows.copyToStandardOutput()
    }
}
