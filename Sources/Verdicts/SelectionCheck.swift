import Records

/// What the gate is asked to compare but these results do not hold: a gated hardware metric that
/// selects no live row, or a reference (baseline or A/B base) row with no counterpart here.
///
/// A comparison of nothing would pass, so each is an input error naming the metric or the row
/// (exit 2), unless the metric is marked `optional` in the thresholds file. Workloads absent from
/// the results are left alone (a run of other workloads), and so are workloads whose items failed
/// (the verdict fails on those, and their missing rows are why).
enum SelectionCheck {
    /// Throws for the first gated hardware metric of a workload in `current` that selects no live
    /// row; returns a note for each optional one that selects none.
    static func hardwareMetrics(
        _ metrics: [HardwareMetric],
        current: [ResultRecord],
        skipping: Set<String>,
        source: String
    ) throws(GateError) -> [String] {
        let present = Set(current.map(\.workload)).subtracting(skipping)
        var notes: [String] = []
        for (i, m) in metrics.enumerated() where present.contains(m.workload) {
            guard !current.contains(where: { selects(m, $0) }) else { continue }
            let name = "hardware_metrics[\(i)] (\(m.workload)/\(m.metric)\(m.scenario.map { "/" + $0 } ?? ""))"
            let what = "no live \(m.metric) of \(m.scenario ?? "any scenario")\(factorText(m.factors)) in the results"
            if let optional = m.optional {
                notes.append("\(name): \(what) (optional: \(optional))")
                continue
            }
            throw GateError.input(
                "\(source): \(name) selects no result row (\(what)); fix the name, run the cells it gates, or mark it \"optional\" with a reason"
            )
        }
        return notes
    }

    /// Throws when the baseline holds a virtual-time row of a workload these results ran that
    /// they lack: the results ran another matrix than the baseline.
    static func baselineRows(
        current: [ResultRecord],
        reference: [ResultRecord],
        skipping: Set<String>,
        referenceName: String
    ) throws(GateError) {
        let present = Set(current.map(\.workload)).subtracting(skipping)
        let here = Set(current.map { CellKey($0, includingRun: false) })
        let sim = reference.filter { $0.mode == "sim" && present.contains($0.workload) }
        let missing = sim.filter { !here.contains(CellKey($0, includingRun: false)) }
        if let first = missing.first {
            throw GateError.input(
                "\(referenceName) row \(CellKey(first, includingRun: false).text) selects no result row\(missing.count > 1 ? " (and \(missing.count - 1) more)" : ""): these results ran another matrix; run the \(referenceName)'s, or record a new baseline with --update-baseline"
            )
        }
    }

    /// Throws when the reference holds a live cell of a gated (not optional) hardware metric that
    /// these results lack. Cells are compared over repetitions: a cell, not each repetition, must
    /// be present.
    static func referenceCells(
        current: [ResultRecord],
        reference: [ResultRecord],
        metrics: [HardwareMetric],
        skipping: Set<String>,
        referenceName: String
    ) throws(GateError) {
        let present = Set(current.map(\.workload)).subtracting(skipping)
        for m in metrics where m.optional == nil && present.contains(m.workload) {
            let cells = Set(current.filter { selects(m, $0) }.map(LiveCell.init))
            if let lost = reference.filter({ selects(m, $0) }).map(LiveCell.init).first(where: { !cells.contains($0) }) {
                throw GateError.input(
                    "\(referenceName) cell \(lost.text) \(m.metric) selects no result row: these results did not measure it; run the \(referenceName)'s matrix, or mark the hardware metric \"optional\" with a reason"
                )
            }
        }
    }

    static func selects(_ m: HardwareMetric, _ r: ResultRecord) -> Bool {
        r.mode == "live" && r.workload == m.workload && r.metric == m.metric && (m.scenario == nil || r.scenario == m.scenario)
            && ThresholdCheck.matches(r.factors, m.factors)
    }

    static func factorText(_ factors: [String: String]?) -> String {
        guard let factors, !factors.isEmpty else { return "" }
        return " [\(ThresholdCheck.describe(factors))]"
    }

    /// A live cell: what the hardware comparison groups repetitions by.
    struct LiveCell: Hashable {
        var workload, scenario, variant: String
        var factors: [String: String]

        init(_ r: ResultRecord) { (workload, scenario, variant, factors) = (r.workload, r.scenario, r.variant, r.factors) }

        var text: String { "\(workload)/\(scenario)/\(variant)\(SelectionCheck.factorText(factors))" }
    }
}
