import Records

/// The tables printed at the end, from the records of a run (medians over seeds).
public enum CacheRanking {
    /// Per trace: variants ranked by hit ratio in the main app at the trace's own cache size, with
    /// the capacity sweep beside it and the NSE / share-extension sizes.
    /// - Parameter summaries: the run's `Statistics.summarize` (its sim records).
    static func simTable(summaries: [SummaryRow], scenarios: [CacheScenario]) -> String {
        let rows = summaries.filter { $0.metric == "hit_ratio" || $0.metric == "latency_p99_us" || $0.metric == "miss_storm_reads" }
        var out = ""
        for scenario in scenarios {
            let mine = rows.filter { $0.scenario == scenario.name }
            guard !mine.isEmpty else { continue }
            func summary(_ variant: String, _ metric: String, _ context: String, _ capacity: Int) -> SummaryRow? {
                mine.first {
                    $0.variant == variant && $0.metric == metric && $0.factors["context"] == context
                        && $0.factors["capacity"] == "\(capacity)"
                }
            }
            func value(_ variant: String, _ metric: String, _ context: String, _ capacity: Int) -> Double? {
                summary(variant, metric, context, capacity)?.median
            }
            let variants = mine.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } }
            let sweep = mine.filter { $0.factors["context"] == "main-app" }.compactMap { Int($0.factors["capacity"] ?? "") }
                .reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
            let own = scenario.profile.maxSize
            let rankAt = sweep.contains(own) ? own : (sweep.first ?? own)
            let ranked = variants.sorted {
                (value($0, "hit_ratio", "main-app", rankAt) ?? -1) > (value($1, "hit_ratio", "main-app", rankAt) ?? -1)
            }
            var columns = ["#", "variant", "n"] + sweep.map { "hit@\($0)" }
            let others: [String] = ["nse", "share-extension"].filter { (c: String) in mine.contains { $0.factors["context"] == c } }
            columns += others.map { "hit \($0 == "nse" ? "nse" : "share")@\(own)" }
            columns += ["p99 us@\(rankAt)", "storm reads@\(rankAt)"]
            var table = TextTable(columns: columns, rightAligned: Set(2..<columns.count))
            for (i, v) in ranked.enumerated() {
                let cells =
                    sweep.map { c in summary(v, "hit_ratio", "main-app", c) }
                    + others.map { c in summary(v, "hit_ratio", c, own) }
                    + [summary(v, "latency_p99_us", "main-app", rankAt), summary(v, "miss_storm_reads", "main-app", rankAt)]
                table.add(["\(i + 1)", v, TextTable.count(cells.compactMap { $0 })] + cells.map { $0?.cell ?? "-" })
            }
            out +=
                "\n\(scenario.name)  (\(scenario.profile.name) cache; ranked by main-app median hit ratio at \(rankAt); \(TextTable.spreadNote))\n"
            out += table.render()
        }
        return out
    }

    /// Where `ours` beats, ties or loses to `reference` on hit ratio at equal capacity and context.
    static func headToHead(summaries: [SummaryRow], ours: String, reference: String) -> (wins: Int, ties: Int, losses: [String]) {
        let rows = summaries.filter { $0.metric == "hit_ratio" && ($0.variant == ours || $0.variant == reference) }
        var wins = 0, ties = 0
        var losses: [String] = []
        for a in rows where a.variant == ours {
            guard let b = rows.first(where: { $0.variant == reference && $0.scenario == a.scenario && $0.factors == a.factors }) else {
                continue
            }
            let cell = "\(a.scenario)/\(a.factors["context"] ?? "")@\(a.factors["capacity"] ?? "")"
            if a.median > b.median + 1e-12 {
                wins += 1
            } else if abs(a.median - b.median) <= 1e-12 {
                ties += 1
            } else {
                losses.append("\(cell) (\(TextTable.number(a.median)) vs \(TextTable.number(b.median)))")
            }
        }
        return (wins, ties, losses)
    }

    /// Live: per operation, variants by capacity and threads.
    static func liveTable(records: [ResultRecord]) -> String {
        let rows = Statistics.summarize(records)
        var out = ""
        for (scenario, metric) in [
            ("live-get", "get_ns"), ("live-get", "get_cpu_ns"), ("live-set", "set_ns"), ("live-set", "set_cpu_ns"),
            ("live-clear", "clear_us"), ("live-fill", "bytes_per_entry"),
            ("live-get", "allocs_per_op"), ("live-set", "allocs_per_op"),
        ] {
            let mine = rows.filter { $0.scenario == scenario && $0.metric == metric }
            guard !mine.isEmpty else { continue }
            let cells = mine.map { "\($0.factors["capacity"] ?? "")/\($0.factors["threads"] ?? "")" }
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let variants = mine.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } }
            var table = TextTable(columns: ["variant", "n"] + cells.map { "cap/thr \($0)" }, rightAligned: Set(1...(cells.count + 1)))
            for v in variants {
                let found = cells.map { c in
                    mine.first { $0.variant == v && "\($0.factors["capacity"] ?? "")/\($0.factors["threads"] ?? "")" == c }
                }
                table.add([v, TextTable.count(found.compactMap { $0 })] + found.map { $0?.cell ?? "-" })
            }
            out += "\n\(scenario) \(metric) (\(mine.first!.unit), \(TextTable.spreadNote))\n" + table.render()
        }
        return out
    }
}
