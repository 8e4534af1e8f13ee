import Records

/// The summary printed at the end: per scenario and globals strategy, the variants ranked
/// (medians over seeds).
///
/// With a screen, rank is the Pareto layer on (t_ui_ready_ms, input_latency_p99_ms) — how soon the
/// user sees the app against how long a tap waits — then missed frames; in the NSE (no screen,
/// no input) the layer is on (t_app_ready_ms, polite_drain_ms). `*` marks layer 1.
package enum ReadinessRanking {
    static let columns: [SummaryTable.Column] = [
        ("t_app_ready_ms", "ready ms"), ("t_ui_ready_ms", "ui ms"), ("ready_turn_ms", "turn ms"),
        ("polite_drain_ms", "drain ms"), ("main_max_stall_ms", "stall ms"), ("input_latency_p50_ms", "in p50"),
        ("input_latency_p99_ms", "in p99"), ("missed_frames", "missed"), ("overtakes", "overtk"),
        ("polite_before_ui", "pol<ui"), ("wasted_slots", "wasted"),
    ]

    /// - Parameter summaries: the run's `Statistics.summarize`, every mode (this one's are ranked).
    package static func render(summaries: [SummaryRow], mode: String) -> String {
        let summaries = summaries.filter { $0.mode == mode }
        var keys: [(String, String)] = []
        for s in summaries where !keys.contains(where: { $0 == (s.scenario, s.factors["globals"] ?? "-") }) {
            keys.append((s.scenario, s.factors["globals"] ?? "-"))
        }
        var out = ""
        for (scenario, globals) in keys {
            let table = SummaryTable(
                rows: summaries.filter { $0.scenario == scenario && ($0.factors["globals"] ?? "-") == globals },
                columns: columns
            )
            guard table.rows.contains(where: { $0.metric == "t_app_ready_ms" }) else { continue }
            let variants = table.variants
            let value = table.median
            let noScreen = scenario == "nse"
            let x: (String) -> Double = { value($0, noScreen ? "t_app_ready_ms" : "t_ui_ready_ms") }
            let y: (String) -> Double = { value($0, noScreen ? "polite_drain_ms" : "input_latency_p99_ms") }
            let layers = SummaryTable.paretoLayers(variants, x: x, y: y)
            let ranked = variants.sorted { a, b in
                if layers[a]! != layers[b]! { return layers[a]! < layers[b]! }
                if value(a, "missed_frames") != value(b, "missed_frames") { return value(a, "missed_frames") < value(b, "missed_frames") }
                return x(a) != x(b) ? x(a) < x(b) : a < b
            }
            let axes = noScreen ? "t_app_ready/polite_drain" : "t_ui_ready/input p99"
            out +=
                "\n\(scenario), globals \(globals) (\(mode), \(TextTable.spreadNote); * = on the \(axes) frontier of the medians)\n"
            out += table.render(ranked) { i, v in "\(i + 1)\(layers[v] == 1 ? "*" : " ")" }
        }
        return out
    }

    /// The live-only scenarios: one row per variant or globals strategy, sums over attempts and seeds.
    package static func renderProbes(records: [ResultRecord]) -> String {
        var out = ""
        let probes = records.filter { $0.scenario == "reentrant-tasks" }
        if !probes.isEmpty {
            var table = TextTable(
                columns: ["variant", "reentry_traps", "deadlocks", "out_of_memory", "completed", "failed"],
                rightAligned: [1, 2, 3, 4, 5]
            )
            var variants: [String] = []
            for r in probes where !variants.contains(r.variant) { variants.append(r.variant) }
            for v in variants {
                func sum(_ m: String) -> String {
                    TextTable.number(probes.filter { $0.variant == v && $0.metric == m }.reduce(0) { $0 + $1.value })
                }
                table.add([
                    v, sum("reentry_traps"), sum("deadlocks"), sum("probes_out_of_memory"), sum("probes_completed"), sum("probes_failed"),
                ])
            }
            out += "\nreentrant-tasks (live, child processes under a watchdog; counts over attempts)\n" + table.render()
        }
        let races = records.filter { $0.scenario == "concurrent-first-use" }
        if !races.isEmpty {
            var table = TextTable(columns: ["globals", "duplicate_constructions", "constructions"], rightAligned: [1, 2])
            var globals: [String] = []
            for r in races where !globals.contains(r.factors["globals"] ?? "-") { globals.append(r.factors["globals"] ?? "-") }
            for g in globals {
                func sum(_ m: String) -> String {
                    TextTable.number(races.filter { $0.factors["globals"] == g && $0.metric == m }.reduce(0) { $0 + $1.value })
                }
                table.add([g, sum("duplicate_constructions"), sum("constructions")])
            }
            out += "\nconcurrent-first-use (live, threads racing through first use; sums over seeds)\n" + table.render()
        }
        return out
    }
}
