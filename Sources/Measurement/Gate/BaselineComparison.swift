/// A run compared with the committed baseline (deterministic metrics, always) and with a reference
/// for the hardware metrics: the committed baseline when its CPU fingerprint matches, or a base run
/// measured in the same job (A/B mode).
public struct BaselineComparison: Codable, Hashable, Sendable {
    /// A virtual-time value that differs from the baseline (or exists on one side only).
    public struct Change: Codable, Hashable, Sendable {
        public var workload, scenario, variant, metric: String
        public var seed: UInt64
        public var factors: [String: String]
        public var baseline: Double?
        public var current: Double?
    }

    /// A live metric compared over repetitions.
    public struct HardwareResult: Codable, Hashable, Sendable {
        /// `notComparable`: measured on another CPU than its reference; neither better nor worse.
        public enum Status: String, Codable, Sendable {
            case ok, regression, improvement, inconclusive
            case notComparable = "not_comparable"
        }
        public var workload, scenario, variant, metric: String
        public var factors: [String: String]
        public var baselineMedian: Double
        public var currentMedian: Double
        /// current / baseline medians.
        public var ratio: Double
        public var pValue: Double
        public var repetitions: [Int]
        public var tolerance: Double
        public var status: Status
    }

    public var deterministicCompared: Int
    public var changes: [Change]
    public var hardware: [HardwareResult]
    /// What the hardware metrics were compared with: `baseline` or `a/b base` (with its folder).
    public var hardwareReference: String?
    /// One line each on what could not be compared and why (another CPU, a base without a metric).
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case deterministicCompared, changes, hardware
        case hardwareReference = "hardware_reference"
        case notes
    }

    public var deterministicRegressions: [Change] { changes.filter { $0.baseline != nil } }
    public var hardwareRegressions: [HardwareResult] { hardware.filter { $0.status == .regression } }

    /// Minimum repetitions per side for a hardware comparison to conclude anything. (With 5 a
    /// side, complete separation gives p ≈ 0.006; after a Bonferroni correction over a couple of
    /// dozen cells, 10 a side are needed to detect anything, which the nightly gate runs.)
    public static let minimumRepetitions = 5

    /// Deterministic values against `baseline`, hardware metrics against `hardwareBaseline`
    /// (default: the same baseline). Hardware cells of `notComparable` workloads are listed with
    /// that status and never tested.
    public static func compare(
        current: [ResultRecord],
        baseline: [ResultRecord],
        hardwareMetrics: [HardwareMetric],
        hardwareBaseline: [ResultRecord]? = nil,
        hardwareReference: String? = nil,
        notComparable: Set<String> = [],
        notes: [String] = []
    ) -> BaselineComparison {
        let (compared, changes) = deterministic(current: current, baseline: baseline)
        let hardware = hardware(
            current: current,
            baseline: hardwareBaseline ?? baseline,
            metrics: hardwareMetrics,
            notComparable: notComparable
        )
        var notes = notes
        for m in hardwareMetrics where !notComparable.contains(m.workload) {
            let now = current.contains { $0.mode == "live" && $0.workload == m.workload && $0.metric == m.metric }
            let before = (hardwareBaseline ?? baseline).contains { $0.mode == "live" && $0.workload == m.workload && $0.metric == m.metric }
            if now, !before {
                notes.append(
                    "\(m.workload) \(m.metric): measured now but absent from the \(hardwareReference ?? "baseline") (it predates the metric?): not compared"
                )
            }
        }
        return BaselineComparison(
            deterministicCompared: compared,
            changes: changes,
            hardware: hardware,
            hardwareReference: hardwareReference,
            notes: notes
        )
    }

    static func deterministic(current: [ResultRecord], baseline: [ResultRecord]) -> (Int, [Change]) {
        struct Key: Hashable {
            var workload, scenario, variant, metric: String
            var seed: UInt64
            var repetition: Int
            var factors: [String: String]
        }
        func key(_ r: ResultRecord) -> Key {
            Key(
                workload: r.workload,
                scenario: r.scenario,
                variant: r.variant,
                metric: r.metric,
                seed: r.seed,
                repetition: r.repetition,
                factors: r.factors
            )
        }
        // Deterministic: exact equality, for the workloads present on both sides.
        let workloads = Set(current.map(\.workload)).intersection(baseline.map(\.workload))
        let old = Dictionary(
            baseline.filter { $0.mode == "sim" && workloads.contains($0.workload) }.map { (key($0), $0.value) },
            uniquingKeysWith: { a, _ in a }
        )
        let new = Dictionary(
            current.filter { $0.mode == "sim" && workloads.contains($0.workload) }.map { (key($0), $0.value) },
            uniquingKeysWith: { a, _ in a }
        )
        var changes: [Change] = []
        for (k, v) in old where new[k] != v {
            changes.append(
                Change(
                    workload: k.workload,
                    scenario: k.scenario,
                    variant: k.variant,
                    metric: k.metric,
                    seed: k.seed,
                    factors: k.factors,
                    baseline: v,
                    current: new[k]
                )
            )
        }
        for (k, v) in new where old[k] == nil {
            changes.append(
                Change(
                    workload: k.workload,
                    scenario: k.scenario,
                    variant: k.variant,
                    metric: k.metric,
                    seed: k.seed,
                    factors: k.factors,
                    baseline: nil,
                    current: v
                )
            )
        }
        changes.sort {
            ($0.workload, $0.scenario, $0.variant, $0.metric, $0.seed) < ($1.workload, $1.scenario, $1.variant, $1.metric, $1.seed)
        }
        return (old.count, changes)
    }

    /// Per gated metric and cell, a one-sided rank test and a practical-size threshold.
    static func hardware(
        current: [ResultRecord],
        baseline: [ResultRecord],
        metrics hardwareMetrics: [HardwareMetric],
        notComparable: Set<String>
    ) -> [HardwareResult] {
        // Hardware: per gated metric, a one-sided rank test and a practical-size threshold.
        struct Group: Hashable {
            var workload, scenario, variant, metric: String
            var factors: [String: String]
        }
        func groups(_ records: [ResultRecord], _ m: HardwareMetric) -> [Group: [Double]] {
            Dictionary(
                grouping: records.filter {
                    $0.mode == "live" && $0.workload == m.workload && $0.metric == m.metric
                        && (m.scenario == nil || $0.scenario == m.scenario) && ThresholdCheck.matches($0.factors, m.factors)
                },
                by: { Group(workload: $0.workload, scenario: $0.scenario, variant: $0.variant, metric: $0.metric, factors: $0.factors) }
            )
            .mapValues { $0.map(\.value) }
        }
        var hardware: [HardwareResult] = []
        let tests = hardwareMetrics.filter { !notComparable.contains($0.workload) }.reduce(0) { n, m in
            let before = groups(baseline, m)
            return n + groups(current, m).keys.filter { before[$0] != nil }.count
        }
        for m in hardwareMetrics {
            let before = groups(baseline, m), after = groups(current, m)
            let alpha = m.alpha / Double(max(tests, 1))
            for (g, cur) in after {
                guard let base = before[g] else { continue }
                if notComparable.contains(g.workload) {
                    hardware.append(
                        HardwareResult(
                            workload: g.workload,
                            scenario: g.scenario,
                            variant: g.variant,
                            metric: g.metric,
                            factors: g.factors,
                            baselineMedian: Statistics.median(base)!,
                            currentMedian: Statistics.median(cur)!,
                            ratio: .nan,
                            pValue: .nan,
                            repetitions: [base.count, cur.count],
                            tolerance: m.tolerance,
                            status: .notComparable
                        )
                    )
                    continue
                }
                let bm = Statistics.median(base)!, cm = Statistics.median(cur)!
                let ratio = bm != 0 ? cm / bm : (cm == 0 ? 1 : .infinity)
                let worse =
                    m.direction == .lowerIsBetter
                    ? MannWhitney.pGreater(current: cur, baseline: base)
                    : MannWhitney.pGreater(current: base, baseline: cur)
                let better =
                    m.direction == .lowerIsBetter
                    ? MannWhitney.pGreater(current: base, baseline: cur)
                    : MannWhitney.pGreater(current: cur, baseline: base)
                let change = m.direction == .lowerIsBetter ? ratio - 1 : 1 - ratio
                let status: HardwareResult.Status
                if cur.count < minimumRepetitions || base.count < minimumRepetitions {
                    status = .inconclusive
                } else if worse < alpha, change > m.tolerance {
                    status = .regression
                } else if better < alpha, -change > m.tolerance {
                    status = .improvement
                } else {
                    status = .ok
                }
                hardware.append(
                    HardwareResult(
                        workload: g.workload,
                        scenario: g.scenario,
                        variant: g.variant,
                        metric: g.metric,
                        factors: g.factors,
                        baselineMedian: bm,
                        currentMedian: cm,
                        ratio: ratio,
                        pValue: min(worse, 1),
                        repetitions: [base.count, cur.count],
                        tolerance: m.tolerance,
                        status: status
                    )
                )
            }
        }
        hardware.sort { ($0.workload, $0.scenario, $0.variant, $0.metric) < ($1.workload, $1.scenario, $1.variant, $1.metric) }
        return hardware
    }
}
