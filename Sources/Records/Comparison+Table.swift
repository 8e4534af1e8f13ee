extension Comparison {
    /// The live-versus-simulated table a live run prints: one row per (scenario, variant) in
    /// first-seen order, a `sim` and a `live` column per metric in `shown` ("-" where absent).
    public static func table(_ comparisons: [Comparison], shown: [String], caption: String) -> String {
        var table = TextTable(
            columns: ["scenario", "variant"] + shown.flatMap { ["\($0) sim", "live"] },
            rightAligned: Set(2..<(2 + 2 * shown.count))
        )
        var keys: [(String, String)] = []
        for c in comparisons where !keys.contains(where: { $0 == (c.scenario, c.variant) }) { keys.append((c.scenario, c.variant)) }
        for (scenario, variant) in keys {
            var row = [scenario, variant]
            for metric in shown {
                let c = comparisons.first { $0.scenario == scenario && $0.variant == variant && $0.metric == metric }
                row += [c.map { TextTable.number($0.sim) } ?? "-", c.map { TextTable.number($0.live) } ?? "-"]
            }
            table.add(row)
        }
        return caption + " [n = 1: each cell is one run's value]\n" + table.render()
    }
}
