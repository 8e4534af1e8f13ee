import Measurement

/// The summary table: per scenario, every variant's medians over seeds, in registration order.
package enum LifecycleRanking {
    static let columns: [(metric: String, title: String)] = [
        ("acked_lost", "lost"), ("corrupt_launches", "corrupt"), ("watchdog_kills", "watchdog"),
        ("bg_task_expirations", "bgt exp"), ("jetsam_kills", "jetsam"), ("sync_success_pct", "sync %"),
        ("duplicate_saves", "dup saves"), ("tti_cold_p50_ms", "cold ms"), ("tti_resume_p50_ms", "resume ms"),
        ("bg_peak_memory_mb", "bg MB"), ("crash_free_sessions_pct", "crash-free %"),
    ]

    package static func render(records: [ResultRecord], mode: String) -> String {
        let summaries = Statistics.summarize(records.filter { $0.mode == mode && $0.scenario != "kill-during-save" })
        var scenarios: [String] = []
        for s in summaries where !scenarios.contains(s.scenario) { scenarios.append(s.scenario) }
        var out = ""
        for scenario in scenarios {
            let rows = summaries.filter { $0.scenario == scenario }
            let variants = rows.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } }
            func value(_ v: String, _ m: String) -> Double { rows.first { $0.variant == v && $0.metric == m }?.median ?? .nan }
            var table = TextTable(columns: ["variant"] + columns.map(\.title), rightAligned: Set(1...columns.count))
            for v in variants { table.add([v] + columns.map { TextTable.number(value(v, $0.metric)) }) }
            let seeds = rows.first?.count ?? 0
            out += "\n\(scenario) (\(mode), median of \(seeds) seed\(seeds == 1 ? "" : "s"); counts are per item's sessions)\n"
            out += table.render()
        }
        return out
    }

    /// Live: one row per durability strategy, sums over seeds.
    package static func renderLive(records: [ResultRecord]) -> String {
        let live = records.filter { $0.scenario == "kill-during-save" }
        guard !live.isEmpty else { return "" }
        let metrics = ["kills", "kills_inside_save", "corrupt_launches", "acked_lost", "saves_completed"]
        var variants: [String] = []
        for r in live where !variants.contains(r.variant) { variants.append(r.variant) }
        var table = TextTable(columns: ["durability"] + metrics, rightAligned: Set(1...metrics.count))
        for v in variants {
            table.add(
                [v] + metrics.map { m in TextTable.number(live.filter { $0.variant == v && $0.metric == m }.map(\.value).reduce(0, +)) }
            )
        }
        return "\nkill-during-save (live: a real child process SIGKILLed at random instants, relaunched to verify; sums)\n" + table.render()
    }
}
