import Records

/// The compact table printed at the end: per scenario, policies ranked on the latency-vs-jank
/// frontier (medians over seeds).
///
/// Rank is Pareto layer first — layer 1 is the set of policies no other policy beats on both p99
/// latency and hitch ratio — then p99 latency within a layer. A `*` marks the frontier.
public enum ThrottleRanking: ScenarioRanking {
    public static let columns: [SummaryTable.Column] = [
        ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"), ("latency_max_ms", "max ms"),
        ("missed_vsyncs", "missed"), ("janky_frames", "janky"), ("hitch_ms_per_s", "hitch ms/s"),
        ("updates", "updates"), ("resets", "resets"), ("undelivered", "undeliv"),
    ]

    /// One scenario: its policies by Pareto layer on (p99 latency, hitch ms/s), then p99 latency.
    public static func section(_ scenario: String, table: SummaryTable) -> String {
        let variants = table.variants
        // Undelivered work has unbounded latency: rank it last.
        func p99(_ v: String) -> Double { table.median(v, "undelivered") > 0 ? .infinity : table.median(v, "latency_p99_ms") }
        func hitch(_ v: String) -> Double { table.median(v, "hitch_ms_per_s") }
        let layers = SummaryTable.paretoLayers(variants, x: p99, y: hitch)
        let ranked = variants.sorted { a, b in
            layers[a]! != layers[b]! ? layers[a]! < layers[b]! : p99(a) < p99(b)
        }
        return "\n\(scenario)  (\(TextTable.spreadNote); * = on the p99-latency/hitch frontier of the medians)\n"
            + table.render(ranked, variantTitle: "policy") { i, v in "\(i + 1)\(layers[v] == 1 ? "*" : " ")" }
    }
}
