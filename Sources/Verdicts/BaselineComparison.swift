import Records

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
        /// Two-sided Mann–Whitney p-value of the rule's sample (run medians or repetitions).
        public var pValue: Double
        public var repetitions: [Int]
        public var tolerance: Double
        public var status: Status
        /// The rule's evidence (`VerdictRule`): the unit tested, BH-adjusted p, the Hodges–Lehmann
        /// change and its 95 % interval (relative), the noise floor used, and why, in words.
        public var unit: String? = nil
        public var runs: [Int]? = nil
        public var pAdjusted: Double? = nil
        public var change: Double? = nil
        public var interval: [Double]? = nil
        public var noiseFloor: Double? = nil
        public var why: String? = nil

        enum CodingKeys: String, CodingKey {
            case workload, scenario, variant, metric, factors, ratio, repetitions, tolerance, status, unit, runs, change, interval, why
            case baselineMedian, currentMedian, pValue
            case pAdjusted = "p_adjusted"
            case noiseFloor = "noise_floor"
        }
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

    /// Minimum values per side for a hardware comparison to conclude anything (`VerdictRule`).
    public static let minimumRepetitions = VerdictRule.minimumValues

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
        notes: [String] = [],
        floors: [String: Double] = [:],
        fingerprints: [String: CPUIdentity] = [:],
        noise: [String: VerdictRule.PairNoise] = [:]
    ) -> BaselineComparison {
        let (compared, changes) = deterministic(current: current, baseline: baseline)
        let hardware = hardware(
            current: current,
            baseline: hardwareBaseline ?? baseline,
            metrics: hardwareMetrics,
            notComparable: notComparable,
            floors: floors,
            fingerprints: fingerprints,
            noise: noise
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
        // Every key on either side whose value differs: a changed value, or one only one side has.
        var changes = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.map { k in
            Change(
                workload: k.workload,
                scenario: k.scenario,
                variant: k.variant,
                metric: k.metric,
                seed: k.seed,
                factors: k.factors,
                baseline: old[k],
                current: new[k]
            )
        }
        changes.sort {
            ($0.workload, $0.scenario, $0.variant, $0.metric, $0.seed) < ($1.workload, $1.scenario, $1.variant, $1.metric, $1.seed)
        }
        return (old.count, changes)
    }

    /// Per gated metric and cell, the verdict of `VerdictRule`: Benjamini–Hochberg runs over every
    /// live cell both sides hold (the family `pb-analysis compare` tests on the same folders), so
    /// the gate and `compare` give the same verdict on the cells the gate judges.
    static func hardware(
        current: [ResultRecord],
        baseline: [ResultRecord],
        metrics hardwareMetrics: [HardwareMetric],
        notComparable: Set<String>,
        floors: [String: Double] = [:],
        fingerprints: [String: CPUIdentity] = [:],
        noise: [String: VerdictRule.PairNoise] = [:]
    ) -> [HardwareResult] {
        let before = LiveCell.cells(baseline), after = LiveCell.cells(current)
        let workloads = Set(baseline.map(\.workload)).intersection(current.map(\.workload))
        // The family: every live cell on both sides with a finite value each, of comparable workloads.
        var family: [LiveCell] = []
        var evidence: [VerdictRule.Evidence] = []
        for (cell, now) in after where workloads.contains(cell.workload) && !notComparable.contains(cell.workload) {
            guard let then = before[cell] else { continue }
            let b = then.mapValues { $0.filter(\.isFinite) }, n = now.mapValues { $0.filter(\.isFinite) }
            guard b.values.contains(where: { !$0.isEmpty }), n.values.contains(where: { !$0.isEmpty }) else { continue }
            family.append(cell)
            evidence.append(VerdictRule.evidence(base: b, new: n))
        }
        VerdictRule.adjust(&evidence)
        struct VariantsOfCell: Hashable {  // the groups of the common shift
            var workload, metric, scenario: String
            var factors: [String: String]
        }
        let cells = Dictionary(grouping: family.indices) {
            VariantsOfCell(
                workload: family[$0].workload,
                metric: family[$0].metric,
                scenario: family[$0].scenario,
                factors: family[$0].factors
            )
        }
        VerdictRule.removeCommonShift(&evidence, groups: Array(cells.values))
        var hardware: [HardwareResult] = []
        for m in hardwareMetrics {
            for (cell, now) in after where cell.isGated(by: m) && notComparable.contains(cell.workload) {
                guard let then = before[cell] else { continue }
                hardware.append(notComparableResult(cell, base: then.values.flatMap { $0 }, current: now.values.flatMap { $0 }, metric: m))
            }
            for (cell, ev) in zip(family, evidence) where cell.isGated(by: m) {
                hardware.append(judged(cell, ev, metric: m, floors: floors, fingerprints: fingerprints, noise: noise))
            }
        }
        hardware.sort { ($0.workload, $0.scenario, $0.variant, $0.metric) < ($1.workload, $1.scenario, $1.variant, $1.metric) }
        return hardware
    }

    /// A cell of a comparable workload judged by `VerdictRule`: its evidence, the noise floor of a
    /// repetition-level comparison, and whether either side was noisier than the floor it learned.
    static func judged(
        _ cell: LiveCell,
        _ ev: VerdictRule.Evidence,
        metric m: HardwareMetric,
        floors: [String: Double],
        fingerprints: [String: CPUIdentity],
        noise: [String: VerdictRule.PairNoise]
    ) -> HardwareResult {
        let floor =
            ev.unit == .repetitions
            ? VerdictRule.floor(
                in: floors,
                fingerprint: fingerprints[cell.workload],
                workload: cell.workload,
                metric: cell.metric,
                factors: cell.factors,
                variant: cell.variant
            ) : nil
        let noisier = noise[cell.workload].map {
            VerdictRule.noisierThanFloor(
                base: $0.base,
                new: $0.new,
                learned: $0.learned,
                severalThreads: (cell.factors["threads"] ?? "1") != "1"
            )
        }
        let outcome = VerdictRule.decide(
            ev,
            lowerIsBetter: m.direction == .lowerIsBetter,
            minimumEffect: m.tolerance,
            floor: floor,
            noisier: noisier ?? ""
        )
        let status: HardwareResult.Status =
            switch outcome {
            case .worse: .regression
            case .better: .improvement
            case .same: .ok
            case .inconclusive, .tooFew: .inconclusive
            }
        let bm = ev.baseMedian, cm = ev.newMedian
        var result = HardwareResult(
            workload: cell.workload,
            scenario: cell.scenario,
            variant: cell.variant,
            metric: cell.metric,
            factors: cell.factors,
            baselineMedian: bm,
            currentMedian: cm,
            ratio: bm != 0 ? cm / bm : (cm == 0 ? 1 : .infinity),
            pValue: ev.p ?? .nan,
            repetitions: [ev.nBase, ev.nNew],
            tolerance: m.tolerance,
            status: status
        )
        result.unit = ev.unit.rawValue
        result.runs = [ev.runsBase, ev.runsNew]
        result.pAdjusted = ev.pAdjusted
        result.change = ev.change
        if let low = ev.low, let high = ev.high { result.interval = [low, high] }
        result.noiseFloor = floor
        result.why = why(ev, outcome: outcome, tolerance: m.tolerance, floor: floor, noisier: noisier ?? "")
        return result
    }

    /// A cell of a workload whose two sides are not comparable (another CPU, another build): its
    /// medians, and no verdict.
    static func notComparableResult(_ cell: LiveCell, base: [Double], current cur: [Double], metric m: HardwareMetric) -> HardwareResult {
        HardwareResult(
            workload: cell.workload,
            scenario: cell.scenario,
            variant: cell.variant,
            metric: cell.metric,
            factors: cell.factors,
            baselineMedian: Statistics.median(base)!,
            currentMedian: Statistics.median(cur)!,
            ratio: .nan,
            pValue: .nan,
            repetitions: [base.count, cur.count],
            tolerance: m.tolerance,
            status: .notComparable
        )
    }

    /// One live cell of a results set: the values of one metric of one variant in one scenario and
    /// factor combination, from every run.
    struct LiveCell: Hashable {
        var workload, scenario, variant, metric: String
        var factors: [String: String]

        /// The live cells of `records`, each with its values by run id.
        static func cells(_ records: [ResultRecord]) -> [LiveCell: [String: [Double]]] {
            var out: [LiveCell: [String: [Double]]] = [:]
            for r in records where r.mode == "live" {
                let cell = LiveCell(workload: r.workload, scenario: r.scenario, variant: r.variant, metric: r.metric, factors: r.factors)
                out[cell, default: [:]][r.runID, default: []].append(r.value)
            }
            return out
        }

        /// Whether `m` gates this cell: its workload and metric, its scenario if it names one, its factors.
        func isGated(by m: HardwareMetric) -> Bool {
            workload == m.workload && metric == m.metric && (m.scenario == nil || scenario == m.scenario)
                && ThresholdCheck.matches(factors, m.factors)
        }
    }

    /// The verdict's reason in words: n a side and what they are, p and its adjustment, the bar.
    static func why(
        _ ev: VerdictRule.Evidence,
        outcome: VerdictRule.Outcome,
        tolerance: Double,
        floor: Double?,
        noisier: String = ""
    ) -> String {
        let unit = ev.unit == .runs ? "run medians" : "repetitions of \(ev.runsBase) / \(ev.runsNew) runs"
        if outcome == .tooFew {
            return "too few \(unit): \(ev.nBase) / \(ev.nNew), need \(VerdictRule.minimumValues) a side"
        }
        var parts = ["\(ev.nBase) / \(ev.nNew) \(unit)"]
        if let common = ev.common {
            parts.append(
                "after removing the cell's common shift of \(String(format: "%+.1f %%", 100 * common)) (the run's, not the code's)"
            )
        }
        if ev.nBase < VerdictRule.minimumValues || ev.nNew < VerdictRule.minimumValues {
            parts.append(
                "fewer than \(VerdictRule.minimumValues) a side: every new value must lie beyond every reference value by more than the bar"
            )
        } else if let p = ev.p, let adjusted = ev.pAdjusted {
            parts.append(
                "Mann–Whitney p = \(String(format: "%.2g", p)), BH-adjusted \(String(format: "%.2g", adjusted)) (q = \(VerdictRule.q))"
            )
        }
        if ev.unit == .repetitions {
            if let floor {
                let bar = VerdictRule.bar(ev, minimumEffect: tolerance, floor: floor)
                let spread = ev.spread.map { String(format: "%.3g", $0) } ?? "–"
                parts.append(
                    "the whole interval must clear \(String(format: "%.3g", bar)), the largest of tolerance \(TextTable.number(tolerance)), noise floor \(String(format: "%.3g", floor)) and the repetitions' spread \(spread); the repetitions' p does not decide against a floor"
                )
                if outcome == .inconclusive, !noisier.isEmpty {
                    parts.append("inconclusive: a side ran noisier than the floor was learned at (\(noisier))")
                }
            } else {
                parts.append(
                    outcome == .inconclusive
                        ? "no noise floor for this CPU and metric: run interleaved / more runs" : "no noise floor known"
                )
            }
        } else {
            parts.append("tolerance \(TextTable.number(tolerance))")
        }
        if outcome == .inconclusive, noisier.isEmpty, ev.unit == .runs || floor != nil, let m = ev.medianChange, let c = ev.change {
            parts.append(
                "inconclusive: the medians moved \(String(format: "%+.1f %%", 100 * m)), against the estimate's direction \(String(format: "%+.1f %%", 100 * c))"
            )
        }
        return parts.joined(separator: "; ")
    }
}
