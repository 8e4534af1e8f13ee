import Measurement

/// Each strategy's ns/op relative to yardsticks measured in the same run, so that results compare
/// across machines: `ratio_to_atomic` (÷ the `atomic` variant) and `ratio_to_c` (÷ the C
/// reference: `c-pthread-mutex` for locks, `c-atomic` for `atomic`; `increment` only).
///
/// Each repetition's ns/op is divided by the reference's *median* ns/op over its repetitions in
/// the same cell (same scenario and factors): pairing repetitions by index would pair unrelated
/// moments of a noisy machine.
///
/// The same ratios from CPU time (`cpu_ratio_to_atomic`, `cpu_ratio_to_c`, from `cpu_ns_per_op`)
/// are what the regression gate compares across runs: time the thread spent preempted by another
/// process does not count, so a neighbour's build moves them far less than the wall-clock ratios
/// (measured on the shared 2-vCPU VM: the wall-clock ratio of an unchanged strategy moved by up to
/// 40 % between two runs, the CPU-time ratio by a few per cent).
package enum ReferenceRatios {
    struct CellKey: Hashable {
        var scenario: String
        var factors: [String: String]
    }

    /// The ratio records for `records` (which must contain the `ns_per_op` records).
    package static func records(for records: [ResultRecord]) -> [ResultRecord] {
        ratios(records, from: "ns_per_op", prefix: "") + ratios(records, from: "cpu_ns_per_op", prefix: "cpu_")
    }

    static func ratios(_ records: [ResultRecord], from metric: String, prefix: String) -> [ResultRecord] {
        var values: [CellKey: [String: [Double]]] = [:]
        for r in records where r.metric == metric && r.value.isFinite {
            values[CellKey(scenario: r.scenario, factors: r.factors), default: [:]][r.variant, default: []].append(r.value)
        }
        var out: [ResultRecord] = []
        for r in records where r.metric == metric {
            guard let variant = LockVariant(rawValue: r.variant), let cell = values[CellKey(scenario: r.scenario, factors: r.factors)] else { continue }
            if variant != .atomic, let reference = cell[LockVariant.atomic.name].flatMap(Statistics.median), reference > 0 {
                out.append(ratio(r, prefix + "ratio_to_atomic", r.value / reference))
            }
            if r.scenario == ContentionOperation.increment.name, let c = variant.cReference,
               let reference = cell[c.name].flatMap(Statistics.median), reference > 0
            {
                out.append(ratio(r, prefix + "ratio_to_c", r.value / reference))
            }
        }
        return out
    }

    static func ratio(_ r: ResultRecord, _ metric: String, _ value: Double) -> ResultRecord {
        var copy = r
        copy.metric = metric
        copy.value = value
        copy.unit = "ratio"
        return copy
    }

    /// The headline fidelity figure: uncontended (1 thread, no work) `pthread-mutex` increment
    /// ns/op over `c-pthread-mutex`'s, from the run's medians; nil when either did not run.
    /// With `metric: "cpu_ns_per_op"`, the same from CPU time, which a busy host inflates less.
    package static func uncontendedOverhead(_ summaries: [SummaryRow], metric: String = "ns_per_op") -> (swift: Double, c: Double, ratio: Double)? {
        func median(_ variant: LockVariant) -> Double? {
            summaries.first {
                $0.scenario == ContentionOperation.increment.name && $0.variant == variant.name && $0.metric == metric
                    && $0.factors == ContentionCell(operation: .increment, threads: 1).factors
            }?.median
        }
        guard let swift = median(.pthreadMutex), let c = median(.cPthreadMutex), c > 0 else { return nil }
        return (swift, c, swift / c)
    }
}
