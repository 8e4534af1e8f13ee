import Records

/// The outcome of one threshold for one (scenario, variant).
public struct ThresholdOutcome: Codable, Hashable, Sendable {
    public enum Status: String, Codable, Sendable { case pass, fail, skipped }

    public var id: String
    public var kind: Threshold.Kind
    public var workload: String
    public var scenario: String
    public var variant: String
    public var status: Status
    /// The values compared, e.g. `missed_vsyncs 141 < 1 × 149 (immediate)`.
    public var detail: String
    public var reason: String

    /// `threshold` skipped as a whole (its workload absent, a debug build), saying why.
    static func skipped(_ threshold: Threshold, detail: String) -> ThresholdOutcome {
        ThresholdOutcome(
            id: threshold.id,
            kind: threshold.kind,
            workload: threshold.workload,
            scenario: threshold.scenario,
            variant: threshold.variant,
            status: .skipped,
            detail: detail,
            reason: threshold.reason
        )
    }
}

/// Evaluates thresholds against result records.
///
/// A threshold that names a workload absent from the results is skipped (and says so): a run of
/// other workloads has nothing to say about it. One whose workload is present but which selects no
/// row there (a typo'd scenario, variant or factor, a mode the run did not measure, a comparison
/// with a variant that is not there) is an input error naming it, unless the thresholds file marks
/// it `optional` with a reason, or items of that workload failed (the verdict fails on those). One
/// that names a metric the workload never produced is an error too: a typo must not pass silently.
public enum ThresholdCheck {
    public static func evaluate(
        _ thresholds: [Threshold],
        on records: [ResultRecord],
        source: String = "thresholds",
        failedWorkloads: Set<String> = []
    ) throws(GateError) -> [ThresholdOutcome] {
        var outcomes: [ThresholdOutcome] = []
        let workloads = Set(records.map(\.workload))
        for t in thresholds {
            guard workloads.contains(t.workload) else {
                outcomes.append(.skipped(t, detail: "workload \(t.workload) not in the results"))
                continue
            }
            let found = try evaluate(t, on: records, source: source)
            guard !found.contains(where: { $0.status != .skipped }) else {
                outcomes += found
                continue
            }
            // Nothing was checked although the workload ran.
            let why = found.first?.detail ?? "no \(t.mode) records"
            if failedWorkloads.contains(t.workload) {
                outcomes += found.map { o in
                    var o = o
                    o.detail += " (not checked: items of \(t.workload) failed)"
                    return o
                }
            } else if let optional = t.optional {
                outcomes += found.map { o in
                    var o = o
                    o.detail += " (optional: \(optional))"
                    return o
                }
            } else {
                throw GateError.input(
                    "\(source): threshold \(t.id) selects no result row (\(why)); fix the name, run the cells it checks, or mark it \"optional\" with a reason"
                )
            }
        }
        return outcomes
    }

    /// The outcomes of one threshold whose workload is in the records (all skipped when it
    /// selects nothing).
    static func evaluate(_ t: Threshold, on records: [ResultRecord], source: String) throws(GateError) -> [ThresholdOutcome] {
        var outcomes: [ThresholdOutcome] = []
        func outcome(_ scenario: String, _ variant: String, _ status: ThresholdOutcome.Status, _ detail: String) -> ThresholdOutcome {
            ThresholdOutcome(
                id: t.id,
                kind: t.kind,
                workload: t.workload,
                scenario: scenario,
                variant: variant,
                status: status,
                detail: detail,
                reason: t.reason
            )
        }
        let all = records.filter { $0.workload == t.workload && $0.mode == t.mode }
        // A live threshold on a folder of virtual-time runs selects nothing (the caller decides
        // whether that is allowed); its metric is then unknown here, not a typo.
        guard !all.isEmpty else {
            return [outcome(t.scenario, t.variant, .skipped, "no \(t.mode) records of workload \(t.workload)")]
        }
        let pool = all.filter { matches($0.factors, t.factors) }
        let metricsSeen = Set(records.filter { $0.workload == t.workload }.map(\.metric))
        for m in [t.metric, t.compare?.metric].compactMap({ $0 }) where !metricsSeen.contains(m) {
            throw GateError.input("\(source): threshold \(t.id): metric: '\(m)' is not a metric of workload \(t.workload)")
        }
        guard !pool.isEmpty else {
            return [outcome(t.scenario, t.variant, .skipped, "no \(t.mode) records with \(describe(t.factors ?? [:]))")]
        }
        let scenarios = t.scenario == "*" ? ordered(pool.map(\.scenario)) : [t.scenario]
        for scenario in scenarios {
            let inScenario = pool.filter { $0.scenario == scenario }
            let excluded = Set(t.excludeVariants ?? [])
            let variants = t.variant == "*" ? ordered(inScenario.map(\.variant)).filter { !excluded.contains($0) } : [t.variant]
            if variants.isEmpty {
                outcomes.append(outcome(scenario, t.variant, .skipped, "no \(t.mode) records for scenario \(scenario)"))
            }
            for variant in variants {
                let lhs = inScenario.filter { $0.variant == variant && $0.metric == t.metric }
                guard !lhs.isEmpty else {
                    outcomes.append(outcome(scenario, variant, .skipped, "no \(t.mode) \(t.metric) for \(scenario)/\(variant)"))
                    continue
                }
                // One evaluation per cell: records that differ in a factor are different cells.
                let cells = Dictionary(grouping: lhs, by: \.factors)
                for factors in cells.keys.sorted(by: { describe($0) < describe($1) }) {
                    var otherFactors = factors
                    for (k, v) in t.compare?.factors ?? [:] { otherFactors[k] = v }
                    let others = all.filter { $0.scenario == scenario && $0.factors == otherFactors }
                    let (ok, detail) = check(t, lhs: cells[factors]!, others: others, variant: variant)
                    let label = describe(factors)
                    let shown = label.isEmpty ? detail : "[\(label)] \(detail)"
                    outcomes.append(outcome(scenario, variant, ok.map { $0 ? .pass : .fail } ?? .skipped, shown))
                }
            }
        }
        return outcomes
    }

    static func describe(_ factors: [String: String]) -> String {
        factors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }

    static func matches(_ factors: [String: String], _ filter: [String: String]?) -> Bool {
        guard let filter else { return true }
        return filter.allSatisfy { factors[$0.key] == $0.value }
    }

    static func ordered(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    static func aggregate(_ values: [Double], _ how: Threshold.Aggregate) -> Double {
        switch how {
        case .median, .all: Statistics.median(values) ?? .nan
        case .max: values.max() ?? .nan
        case .min: values.min() ?? .nan
        }
    }

    /// nil `ok` when the other side of a comparison is missing.
    static func check(_ t: Threshold, lhs: [ResultRecord], others: [ResultRecord], variant: String) -> (Bool?, String) {
        let how = t.aggregate ?? .median
        let fmt = CSVWriter.format
        if let bound = t.bound {
            if how == .all {
                let failing = lhs.filter { !bound.op.holds($0.value, bound.value) }
                let shown = failing.first ?? lhs.max { $0.value < $1.value }!
                return (
                    failing.isEmpty,
                    "\(t.metric) \(fmt(shown.value)) \(bound.op.rawValue) \(fmt(bound.value)) (every seed; \(failing.count) of \(lhs.count) failing)"
                )
            }
            let v = aggregate(lhs.map(\.value), how)
            return (bound.op.holds(v, bound.value), "\(how.rawValue) \(t.metric) \(fmt(v)) \(bound.op.rawValue) \(fmt(bound.value))")
        }
        let c = t.compare!
        let otherVariant = c.variant ?? variant
        let otherMetric = c.metric ?? t.metric
        let factor = c.factor ?? 1
        let rhs = others.filter { $0.variant == otherVariant && $0.metric == otherMetric }
        guard !rhs.isEmpty else { return (nil, "no \(otherMetric) for \(otherVariant) to compare with") }
        let label = "\(otherVariant == variant ? "" : otherVariant + " ")\(otherMetric)"
        if how == .all {
            var failing = 0, paired = 0
            var example = ""
            for l in lhs {
                guard let r = rhs.first(where: { $0.seed == l.seed && $0.repetition == l.repetition }) else { continue }
                paired += 1
                if !c.op.holds(l.value, factor * r.value) {
                    failing += 1
                    if example.isEmpty { example = " (seed \(l.seed): \(fmt(l.value)) vs \(fmt(factor * r.value)))" }
                }
            }
            guard paired > 0 else { return (nil, "no repetitions of \(otherVariant) paired by seed") }
            return (
                failing == 0,
                "\(t.metric) \(c.op.rawValue) \(fmt(factor)) × \(label) in every seed: \(failing) of \(paired) failing\(example)"
            )
        }
        let l = aggregate(lhs.map(\.value), how), r = aggregate(rhs.map(\.value), how)
        return (c.op.holds(l, factor * r), "\(how.rawValue) \(t.metric) \(fmt(l)) \(c.op.rawValue) \(fmt(factor)) × \(fmt(r)) (\(label))")
    }
}
