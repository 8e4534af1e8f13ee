/// Renders the tidy results table as RFC 4180 CSV.
///
/// Hand-written rather than SwiftCSV (which the mirror has): SwiftCSV is a reader, and writing
/// tidy rows needs only RFC 4180 quoting plus a number format that round-trips exactly.
public enum CSVWriter {
    /// The fixed columns, in order; workload factor columns follow `repetition`.
    public static let leadingColumns = ["run_id", "workload", "scenario", "variant", "origin", "mode", "seed", "repetition"]
    public static let trailingColumns = ["metric", "value", "unit", "host"]

    /// The header of a table of `schemaVersion` (version 1 had no `origin` column).
    public static func header(factorNames: [String], schemaVersion: Int = RunDocument.currentSchemaVersion) -> [String] {
        let leading = schemaVersion == 1 ? leadingColumns.filter { $0 != "origin" } : leadingColumns
        return leading + factorNames + trailingColumns
    }

    /// One record's fields in the column order of `header(factorNames:schemaVersion:)`.
    public static func fields(_ r: ResultRecord, factorNames: [String], schemaVersion: Int = RunDocument.currentSchemaVersion) -> [String] {
        var fields = [r.runID, r.workload, r.scenario, r.variant]
        if schemaVersion != 1 { fields.append(r.origin) }
        fields += [r.mode, String(r.seed), String(r.repetition)]
        for name in factorNames { fields.append(r.factors[name] ?? "") }
        fields += [r.metric, float(r.value), r.unit, r.host]
        return fields
    }

    public static func render(_ records: [ResultRecord], factorNames: [String]) -> String {
        var out = header(factorNames: factorNames).joined(separator: ",") + "\n"
        out.reserveCapacity(records.count * 96)
        for r in records {
            out += fields(r, factorNames: factorNames).map(escape).joined(separator: ",")
            out += "\n"
        }
        return out
    }

    /// Shortest text that reads back as the same `Double`; integers without a trailing `.0`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Shortest text that reads back as the same `Double`, always spelled as a float (`3.0`,
    /// `0.1`, `1e+16`, `NaN`, `1e999`): the spelling of a column that is a float in every row.
    ///
    /// pandas, polars and DuckDB guess a column's type from its first rows (polars from the first
    /// 100): a `value` column whose first rows were whole numbers (`3`) read as integers, and
    /// polars then failed on the first fraction. Each spelling here is one all three read as a
    /// float by default, wherever it comes: polars reads `nan` as text (`NaN` as a float), and
    /// DuckDB reads a column whose first value is `inf` as text, so an infinity is `1e999`, the
    /// number every reader's parser rounds to infinity.
    public static func float(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "1e999" : "-1e999" }
        return String(value)  // Swift's shortest round trip, with a point or an exponent: "3.0", "1e+16"
    }

    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
