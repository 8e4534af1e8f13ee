import Records

/// The summary table: per scenario, every variant's medians over seeds, in registration order.
package enum LifecycleRanking {
    static let columns: [SummaryTable.Column] = [
        ("acked_lost", "lost"), ("corrupt_launches", "corrupt"), ("watchdog_kills", "watchdog"),
        ("bg_task_expirations", "bgt exp"), ("jetsam_kills", "jetsam"), ("sync_success_pct", "sync %"),
        ("duplicate_saves", "dup saves"), ("tti_cold_p50_ms", "cold ms"), ("tti_resume_p50_ms", "resume ms"),
        ("bg_peak_memory_mb", "bg MB"), ("crash_free_sessions_pct", "crash-free %"),
    ]

    /// - Parameter summaries: the run's `Statistics.summarize`, every mode (this one's are shown).
    package static func render(summaries: [SummaryRow], mode: String) -> String {
        let summaries = summaries.filter { $0.mode == mode && $0.scenario != "kill-during-save" }
        var scenarios: [String] = []
        for s in summaries where !scenarios.contains(s.scenario) { scenarios.append(s.scenario) }
        var out = ""
        for scenario in scenarios {
            let table = SummaryTable(rows: summaries.filter { $0.scenario == scenario }, columns: columns)
            out += "\n\(scenario) (\(mode), \(TextTable.spreadNote); counts are per item's sessions)\n"
            out += table.render(table.variants)
        }
        return out
    }

    /// Live: one row per variant of the run and per durability strategy, sums over seeds.
    package static func renderLive(records: [ResultRecord]) -> String {
        let live = records.filter { $0.scenario == "kill-during-save" }
        guard !live.isEmpty else { return "" }
        let metrics = ["kills", "kills_inside_save", "corrupt_launches", "acked_lost", "saves_completed"]
        var variants: [String] = []
        for r in live where !variants.contains(r.variant) { variants.append(r.variant) }
        var table = TextTable(columns: ["variant", "durability", "n"] + metrics, rightAligned: Set(2...(metrics.count + 2)))
        for v in variants {
            let seeds = Set(live.filter { $0.variant == v }.map(\.seed)).count
            let durability = live.first { $0.variant == v }?.factors["durability"] ?? "-"
            table.add(
                [v, durability == v ? "" : durability, "\(seeds)"]
                    + metrics.map { m in
                        let values = live.filter { $0.variant == v && $0.metric == m }.map(\.value)
                        let sum = TextTable.number(values.reduce(0, +))
                        return values.count > 1 ? "\(sum) (\(TextTable.number(values.min()!))–\(TextTable.number(values.max()!)))" : sum
                    }
            )
        }
        return "\nkill-during-save (live: a real child process SIGKILLed at random instants, relaunched to verify; "
            + "cells: sum over the n seeds (min–max per seed))\n" + table.render()
    }
}
