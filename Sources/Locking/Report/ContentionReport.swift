import Records

/// The printed summary: per operation and work amount, a ranking of the strategies at each thread
/// count by median ns/op, with the other metrics beside it.
package enum ContentionReport {
    /// - Parameter cells: the cells of the finished items. A cell may come more than once — a `user`
    ///   variant's item of a cell runs on its own, beside the suite's item of the same cell — but is
    ///   shown once, every variant of it ranked together.
    package static func render(plan: ContentionPlan, cells finishedCells: [ContentionCell], summaries: [SummaryRow]) -> String {
        var seen = Set<ContentionCell>()
        let cells = finishedCells.filter { seen.insert($0).inserted }
        struct Key: Hashable {
            var scenario, variant, metric: String
            var factors: [String: String]
        }
        var index: [Key: SummaryRow] = [:]
        for s in summaries { index[Key(scenario: s.scenario, variant: s.variant, metric: s.metric, factors: s.factors)] = s }

        var out = ""
        var groups: [(ContentionOperation, WorkAmount, WorkAmount)] = []
        for c in cells where !groups.contains(where: { $0 == (c.operation, c.csWork, c.gapWork) }) {
            groups.append((c.operation, c.csWork, c.gapWork))
        }
        for (op, cs, gap) in groups {
            out +=
                "\n\(op.name) — cs_work_ns \(ContentionCell.column(cs)), gap_work_ns \(ContentionCell.column(gap)) (median of n repetitions, min–max beside it; other columns: medians; ranked by ns/op per thread count)\n"
            var table = TextTable(
                columns: [
                    "threads", "#", "variant", "n", "ns/op", "min–max", "Mops/s", "jain", "max/min", "lost",
                    "vol cs", "invol cs", "cpu ns/op", "allocs/op", "B/op", "×atomic", "×C", "co-sched",
                ],
                rightAligned: Set([0, 1] + Array(3...17))
            )
            for cell in cells where cell.operation == op && cell.csWork == cs && cell.gapWork == gap {
                func row(_ v: LockVariant, _ metric: String) -> SummaryRow? {
                    index[Key(scenario: op.name, variant: v.name, metric: metric, factors: cell.factors)]
                }
                let ranked = plan.variants(for: cell)
                    .compactMap { v in row(v, "ns_per_op").map { (v, $0) } }
                    .sorted { $0.1.median < $1.1.median }
                for (rank, (v, ns)) in ranked.enumerated() {
                    func shown(_ metric: String, scale: Double = 1) -> String {
                        row(v, metric).map { TextTable.number($0.median * scale) } ?? "-"
                    }
                    table.add([
                        String(cell.threads), String(rank + 1), v.name, String(ns.count), TextTable.number(ns.median),
                        "\(TextTable.number(ns.min))–\(TextTable.number(ns.max))", shown("ops_per_s", scale: 1e-6),
                        shown("jain_fairness"), shown("max_min_share_ratio"), shown("lost_updates"),
                        shown("voluntary_ctx_switches"), shown("involuntary_ctx_switches"), shown("cpu_ns_per_op"),
                        shown("allocs_per_op"), shown("bytes_per_op"), shown("ratio_to_atomic"), shown("ratio_to_c"),
                        shown("co_scheduled_fraction"),
                    ])
                }
            }
            out += table.render()
        }
        return out
    }
}
