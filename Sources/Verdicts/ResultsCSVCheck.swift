import Foundation
import Records

/// Checks that a run document's CSV (when there is one) holds exactly the document's records.
///
/// The pair is written by one run; a CSV that disagrees with its JSON is what an interrupted or
/// mixed-up write leaves behind (a new CSV beside an old JSON), and gating either half would gate
/// something nobody measured as a whole. Values are compared as numbers (the writer's format
/// round-trips exactly), so only a real difference fails.
enum ResultsCSVCheck {
    static func check(_ d: RunDocument, csvPath: String, fail: (String) -> GateError) throws(GateError) {
        guard FileManager.default.fileExists(atPath: csvPath) else { return }  // --format json writes none
        guard let data = FileManager.default.contents(atPath: csvPath) else { throw fail("\(csvPath): cannot be read") }
        let rows = parse(String(decoding: data, as: UTF8.self))
        let header = CSVWriter.header(factorNames: d.factorNames, schemaVersion: d.schemaVersion)
        guard let first = rows.first, first == header else {
            throw fail("\(csvPath): header does not match \(d.workload).json's columns (\(header.joined(separator: ",")))")
        }
        let body = rows.dropFirst()
        guard body.count == d.records.count else {
            throw fail("\(csvPath): \(body.count) rows but \(d.workload).json holds \(d.records.count) records: the pair disagrees")
        }
        for (index, (row, r)) in zip(body, d.records).enumerated() {
            let expected = CSVWriter.fields(r, factorNames: d.factorNames, schemaVersion: d.schemaVersion)
            guard row.count == expected.count else {
                throw fail("\(csvPath): line \(index + 2): \(row.count) fields, expected \(expected.count)")
            }
            for (column, (got, want)) in zip(header, zip(row, expected)) where got != want {
                if column == "value", let a = Double(got), let b = Double(want), a == b || (a.isNaN && b.isNaN) { continue }
                throw fail(
                    "\(csvPath): line \(index + 2): \(column) is '\(got.prefix(60))' but \(d.workload).json says '\(want.prefix(60))': the pair disagrees"
                )
            }
        }
    }

    /// Whether a CSV file is a results table (by its first columns), read from its first bytes only.
    static func isResultsTable(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 256)) ?? Data()
        let text = String(decoding: head, as: UTF8.self)
        return [1, RunDocument.currentSchemaVersion].contains { version in
            text.hasPrefix(CSVWriter.header(factorNames: [], schemaVersion: version).prefix(5).joined(separator: ",") + ",")
        }
    }

    /// RFC 4180: fields separated by commas, quoted fields may hold commas, quotes ("") and newlines.
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return chars.next()
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            quoted = false
                            pending = n
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r": continue
            case "\n":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
