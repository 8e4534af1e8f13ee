import Measurement
import Records

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
    /// The ratio observations for the cells of a run, computed from the typed samples: for every
    /// measured repetition, its ns/op over the reference's median in the same cell.
    package static func observations(for results: [FinishedItem<AtomicsWorkload.Item, AtomicsWorkload.Sample>]) -> [LabelledObservations] {
        // A cell's runs may come from several items (a user variant's runs in an item of its own):
        // the references are looked up over all of them, in item order.
        var cells: [ContentionCell] = []
        var runs: [ContentionCell: [AtomicsWorkload.Run]] = [:]
        for result in results {
            if runs[result.item.cell] == nil { cells.append(result.item.cell) }
            runs[result.item.cell, default: []] += result.sample.runs
        }
        var out: [LabelledObservations] = []
        for (metric, prefix) in [("ns_per_op", ""), ("cpu_ns_per_op", "cpu_")] {
            for cell in cells {
                out += ratios(cell, runs[cell] ?? [], metric: metric, prefix: prefix)
            }
        }
        return out
    }

    static func ratios(_ cell: ContentionCell, _ runs: [AtomicsWorkload.Run], metric: String, prefix: String) -> [LabelledObservations] {
        func value(_ run: AtomicsWorkload.Run) -> Double? {
            run.sample.observations().first { $0.metric == metric }?.value
        }
        func median(_ variant: String) -> Double? {
            Statistics.median(runs.filter { $0.variant.name == variant }.compactMap(value).filter(\.isFinite))
        }
        let atomic = median(LockVariant.atomic.name)
        var out: [LabelledObservations] = []
        for run in runs {
            guard let v = value(run) else { continue }
            var observations: [Observation] = []
            if run.variant != .atomic, let reference = atomic, reference > 0 {
                observations.append(Observation(prefix + "ratio_to_atomic", v / reference, "ratio"))
            }
            if cell.operation == .increment, let c = run.variant.cReference, let reference = median(c), reference > 0 {
                observations.append(Observation(prefix + "ratio_to_c", v / reference, "ratio"))
            }
            for o in observations {
                out.append(
                    LabelledObservations(
                        scenario: cell.operation.name,
                        variant: run.variant.name,
                        mode: "live",
                        seed: run.seed,
                        repetition: run.repetition,
                        factors: cell.factors,
                        observations: [o]
                    )
                )
            }
        }
        return out
    }

    /// The headline fidelity figure: uncontended (1 thread, no work) `pthread-mutex` increment
    /// ns/op over `c-pthread-mutex`'s, from the run's medians; nil when either did not run.
    /// With `metric: "cpu_ns_per_op"`, the same from CPU time, which a busy host inflates less.
    package static func uncontendedOverhead(
        _ summaries: [SummaryRow],
        metric: String = "ns_per_op"
    ) -> (swift: Double, c: Double, ratio: Double)? {
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
