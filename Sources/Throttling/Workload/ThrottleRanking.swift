import Measurement

/// The compact table printed at the end: per scenario, policies ranked on the latency-vs-jank
/// frontier (medians over seeds).
///
/// Rank is Pareto layer first — layer 1 is the set of policies no other policy beats on both p99
/// latency and hitch ratio — then p99 latency within a layer. A `*` marks the frontier.
public enum ThrottleRanking {
    static let columns: [(metric: String, title: String)] = [
        ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"), ("latency_max_ms", "max ms"),
        ("missed_vsyncs", "missed"), ("janky_frames", "janky"), ("hitch_ms_per_s", "hitch ms/s"),
        ("updates", "updates"), ("resets", "resets"), ("undelivered", "undeliv"),
    ]

    public static func render(records: [ResultRecord], scenarios: [String]) -> String {
        render(summaries: Statistics.summarize(records), scenarios: scenarios)
    }

    /// The table from the run's summaries (`Statistics.summarize` of its records).
    public static func render(summaries: [SummaryRow], scenarios: [String]) -> String {
        var out = ""
        for scenario in scenarios {
            let rows = summaries.filter { $0.scenario == scenario }
            let variants = rows.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } }
            guard !variants.isEmpty else { continue }
            func value(_ variant: String, _ metric: String) -> Double {
                rows.first { $0.variant == variant && $0.metric == metric }?.median ?? .nan
            }
            // Undelivered work has unbounded latency: rank it last.
            func p99(_ v: String) -> Double { value(v, "undelivered") > 0 ? .infinity : value(v, "latency_p99_ms") }
            func hitch(_ v: String) -> Double { value(v, "hitch_ms_per_s") }
            let layers = paretoLayers(variants, x: p99, y: hitch)
            let ranked = variants.sorted { a, b in
                layers[a]! != layers[b]! ? layers[a]! < layers[b]! : p99(a) < p99(b)
            }
            var table = TextTable(columns: ["#", "policy", "n"] + columns.map(\.title), rightAligned: Set(2..<(3 + columns.count)))
            for (i, v) in ranked.enumerated() {
                let mark = layers[v] == 1 ? "*" : " "
                let cells = columns.map { c in rows.first { $0.variant == v && $0.metric == c.metric } }
                table.add(["\(i + 1)\(mark)", v, TextTable.count(cells.compactMap { $0 })] + cells.map { $0?.cell ?? "-" })
            }
            out += "\n\(scenario)  (\(TextTable.spreadNote); * = on the p99-latency/hitch frontier of the medians)\n"
            out += table.render()
        }
        return out
    }

    /// Layer 1 = non-dominated points; remove them and repeat.
    public static func paretoLayers(_ items: [String], x: (String) -> Double, y: (String) -> Double) -> [String: Int] {
        var remaining = items
        var layer = 1
        var result: [String: Int] = [:]
        while !remaining.isEmpty {
            let front = remaining.filter { a in
                !remaining.contains { b in
                    b != a && x(b) <= x(a) && y(b) <= y(a) && (x(b) < x(a) || y(b) < y(a))
                }
            }
            let chosen = front.isEmpty ? remaining : front
            for a in chosen { result[a] = layer }
            remaining.removeAll { chosen.contains($0) }
            layer += 1
        }
        return result
    }
}
