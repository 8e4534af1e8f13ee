/// A plain fixed-width text table for terminal summaries.
public struct TextTable: Sendable {
    public var columns: [String]
    public var rows: [[String]] = []
    /// Columns whose cells are right-aligned (numbers).
    public var rightAligned: Set<Int>

    public init(columns: [String], rightAligned: Set<Int> = []) {
        self.columns = columns
        self.rightAligned = rightAligned
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render() -> String {
        var widths = columns.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        var out = line(columns) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }

    /// Formats a number compactly for a table cell: 3 significant digits, no exponent below 1e9.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "-" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        let a = abs(value)
        if a == 0 { return "0" }
        if a >= 100 { return String(Int64(value.rounded())) }
        if a >= 10 { return format(value, decimals: 1) }
        if a >= 1 { return format(value, decimals: 2) }
        return format(value, decimals: 3)
    }

    static func format(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int64(scaled / scale)
        var frac = String(Int64(abs(scaled)) % Int64(scale))
        while frac.count < decimals { frac = "0" + frac }
        let sign = value < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(frac)"
    }
}
