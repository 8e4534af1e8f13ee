/// How a table shows a summary: its centre with its spread and n, so two seeds that differ are
/// never printed as one number (every bench-* table uses these).
extension SummaryRow {
    /// The median, then `(min–max)` over the values where they differ: `0.314 (0.307–0.321)`.
    public var cell: String { TextTable.spread(median: median, min: min, max: max) }
}

extension TextTable {
    /// What a table's caption says about its cells.
    public static let spreadNote = "cells: median (min–max where the seeds differ); n: values per cell"

    /// `median (min–max)`, or the median alone when min and max print the same.
    public static func spread(median: Double, min: Double, max: Double) -> String {
        let low = number(min), high = number(max)
        return low == high ? number(median) : "\(number(median)) (\(low)–\(high))"
    }

    /// The `n` column of a row: the number of values behind its cells, `3`, or `2-3` where cells differ.
    public static func count(_ rows: [SummaryRow]) -> String {
        let counts = rows.map(\.count)
        guard let low = counts.min(), let high = counts.max() else { return "0" }
        return low == high ? "\(low)" : "\(low)-\(high)"
    }
}
