/// The table every workload's summary prints per scenario, written once: one row per variant in
/// the order given, its rank first where ranked, `n` (the values behind its cells), then the
/// median and spread over seeds of each metric column ("-" where the variant has no such row).
/// Each workload passes only what differs: its columns, its order and its rank marks.
public struct SummaryTable {
    /// A column: the metric it shows and its short title.
    public typealias Column = (metric: String, title: String)

    /// The summaries of one scenario (or one scenario and factor level).
    public var rows: [SummaryRow]
    public var columns: [Column]

    public init(rows: [SummaryRow], columns: [Column]) {
        self.rows = rows
        self.columns = columns
    }

    /// The variants of `rows`, in first-seen order (the registry's order for a run's summaries).
    public var variants: [String] { rows.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } } }

    /// The median of `metric` for `variant`, NaN where there is none (NaN never ranks first).
    public func median(_ variant: String, _ metric: String) -> Double {
        rows.first { $0.variant == variant && $0.metric == metric }?.median ?? .nan
    }

    /// The rendered table of `variants`, in that order; `rank` labels a row from its place
    /// (0-based) and variant (`1*` for a ranked row on the frontier), nil for an unranked table.
    public func render(_ variants: [String], variantTitle: String = "variant", rank: ((Int, String) -> String)? = nil) -> String {
        let leading = (rank == nil ? [] : ["#"]) + [variantTitle, "n"]
        var table = TextTable(
            columns: leading + columns.map(\.title),
            rightAligned: Set((leading.count - 1)..<(leading.count + columns.count))
        )
        for (i, v) in variants.enumerated() {
            let cells = columns.map { c in rows.first { $0.variant == v && $0.metric == c.metric } }
            table.add((rank.map { [$0(i, v)] } ?? []) + [v, TextTable.count(cells.compactMap { $0 })] + cells.map { $0?.cell ?? "-" })
        }
        return table.render()
    }

    /// Pareto layers of `items` on two axes, both lower-is-better: layer 1 is the items no other
    /// item beats on both; remove them and repeat.
    public static func paretoLayers(_ items: [String], x: (String) -> Double, y: (String) -> Double) -> [String: Int] {
        var remaining = items
        var layer = 1
        var result: [String: Int] = [:]
        while !remaining.isEmpty {
            let front = remaining.filter { a in
                !remaining.contains { b in b != a && x(b) <= x(a) && y(b) <= y(a) && (x(b) < x(a) || y(b) < y(a)) }
            }
            let chosen = front.isEmpty ? remaining : front
            for a in chosen { result[a] = layer }
            remaining.removeAll { chosen.contains($0) }
            layer += 1
        }
        return result
    }
}
