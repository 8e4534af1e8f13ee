import Foundation
import Measurement
import Records

extension AtomicsWorkload {
    package func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        let matrixSeconds = Double(clock.nanoseconds() &- started) / 1e9
        let probeAfter =
            configuration.probeDuration > 0
            ? try? CoSchedulingProbe(clock: clock, pinning: configuration.pin, cpuCount: settings.cpuCount).run(
                seconds: configuration.probeDuration
            )
            : nil
        let derived = ReferenceRatios.observations(for: results)
        let records = records(of: results) + derived.records(workload: Self.name)
        let summaries = Statistics.summarize(records)
        let overhead = ReferenceRatios.uncontendedOverhead(summaries)
        let cpuOverhead = ReferenceRatios.uncontendedOverhead(summaries, metric: "cpu_ns_per_op")
        var lost: [String] = []
        var pinFailures = 0
        for r in results {
            for run in r.sample.runs {
                pinFailures += run.sample.pinFailures
                if run.variant.isSynchronized, run.sample.lostUpdates > 0 {
                    lost.append(
                        "\(run.variant.name) \(r.item.cell.operation.name) threads=\(r.item.cell.threads) lost \(run.sample.lostUpdates)"
                    )
                }
            }
        }

        var notes: [String] = []
        if BuildInfo.isDebug { notes.append("debug build: timings are not representative; use swift run -c release") }
        if !RegressionInjection.slowedVariants.isEmpty {
            notes.append(
                "REGRESSION INJECTED for gate testing (\(RegressionInjection.variable)): \(RegressionInjection.slowedVariants.sorted().joined(separator: ", ")): \(RegressionInjection.effect)"
            )
        }
        notes.append(Self.probeNote(before: probeBefore, after: probeAfter, samples: records))
        if let overhead {
            var text =
                "uncontended pthread-mutex wrapper vs C: \(TextTable.number(overhead.swift)) ns/op vs \(TextTable.number(overhead.c)) ns/op = \(TextTable.number(overhead.ratio))× (target ≤ 1.15×)"
            if let cpuOverhead {
                text +=
                    "; by CPU time \(TextTable.number(cpuOverhead.swift)) vs \(TextTable.number(cpuOverhead.c)) ns/op = \(TextTable.number(cpuOverhead.ratio))×"
            }
            notes.append(text)
        }
        notes.append(
            "allocator \(allocator.choice.rawValue)\(allocator.jemalloc.map { " \($0.version)" } ?? ""); allocation counting: \(allocator.countingMethod)"
        )
        if pinFailures > 0 { notes.append("\(pinFailures) worker threads could not be pinned to a CPU") }
        if !lost.isEmpty { notes.append("LOST UPDATES in synchronized strategies: \(lost.joined(separator: "; "))") }

        var table =
            "bench-atomics on \(HostInfo.current.cpuModel) (\(settings.cpuCount) CPUs), \(BuildInfo.configuration) build, allocator \(allocator.choice.rawValue)\n"
        table += "co-scheduling probe: \(Self.describe(probeBefore)) before, \(Self.describe(probeAfter)) after\n"
        table += ContentionReport.render(plan: plan, cells: results.map(\.item.cell), summaries: summaries)
        table += "\nmatrix wall time \(TextTable.number(matrixSeconds)) s\n"

        var parameters: [String: JSONValue] = [
            "matrix_wall_s": .number(matrixSeconds),
            "co_scheduling_probe": .object([
                "duration_s": .number(configuration.probeDuration),
                "fast_threshold_ns": .number(Double(CoSchedulingProbe.fastThresholdNanoseconds)),
                "before": Self.json(probeBefore),
                "after": Self.json(probeAfter),
            ]),
        ]
        if let overhead {
            var figure: [String: JSONValue] = [
                "swift_ns_per_op": .number(overhead.swift), "c_ns_per_op": .number(overhead.c), "ratio": .number(overhead.ratio),
            ]
            if let cpuOverhead {
                figure["swift_cpu_ns_per_op"] = .number(cpuOverhead.swift)
                figure["c_cpu_ns_per_op"] = .number(cpuOverhead.c)
                figure["cpu_ratio"] = .number(cpuOverhead.ratio)
            }
            parameters["uncontended_pthread_mutex_vs_c"] = .object(figure)
        }
        return WorkloadReport(
            table: table,
            derived: derived,
            notes: notes,
            parameters: parameters,
            failure: lost.isEmpty ? nil : BenchFailure.runtime("synchronized strategies lost updates: \(lost.joined(separator: "; "))")
        )
    }

    package var parameters: [String: JSONValue] {
        var p: [String: JSONValue] = [
            "operations": .array(plan.operations.map { .string($0.name) }),
            "variants": .array(plan.variants.map { .string($0.name) }),
            "threads": .array(plan.threads.map { .number(Double($0)) }),
            "cs_work_ns": .array(plan.csWorks.map { .number($0.nanoseconds) }),
            "gap_work_ns": .array(plan.gapWorks.map { .number($0.nanoseconds) }),
            "duration_s": .number(duration),
            "warmup_s": .number(warmup),
            "repetitions": .number(Double(seeds.count)),
            "first_seed": .string(String(selection.firstSeed)),
            "full": .bool(configuration.full),
            "quick": .bool(selection.quick),
            "pin": .bool(configuration.pin),
            "batch_operations": .number(Double(settings.batch)),
            "probe_before_each_round_s": .number(settings.probeDuration),
            "spin_ns_per_iteration": .number(calibration.nanosecondsPerIteration),
            "cpu_count": .number(Double(settings.cpuCount)),
            "allocator": .string(allocator.choice.rawValue),
            "allocation_counting": .string(allocator.countingMethod),
        ]
        if let jemalloc = allocator.jemalloc {
            p["jemalloc_version"] = .string(jemalloc.version)
            p["jemalloc_library"] = allocator.library.map { .string($0) } ?? .null
        }
        return p
    }

    static func json(_ r: CoSchedulingResult?) -> JSONValue {
        guard let r else { return .null }
        return .object([
            "fraction": .number(r.fraction), "verdict": .string(r.verdict), "round_trips": .number(Double(r.roundTrips)),
            "mean_fast_round_trip_ns": r.meanFastRoundTripNanoseconds.isFinite ? .number(r.meanFastRoundTripNanoseconds) : .null,
        ])
    }

    static func describe(_ r: CoSchedulingResult?) -> String {
        guard let r else { return "not run" }
        return "\(r.verdict) (\(TextTable.number(r.fraction * 100))% of the window in fast round trips)"
    }

    /// The probe's one-line verdict, including the spread of the probes before each round of repetitions.
    static func probeNote(before: CoSchedulingResult?, after: CoSchedulingResult?, samples: [ResultRecord]) -> String {
        let fractions = samples.filter { $0.metric == "co_scheduled_fraction" }.map(\.value)
        var text = "co-scheduling probe: \(describe(before)) before the matrix, \(describe(after)) after"
        if !fractions.isEmpty {
            let serialized = fractions.filter { $0 < 0.9 }.count
            text +=
                "; per-round probes (each repetition carries its round's): median \(TextTable.number(Statistics.median(fractions) ?? .nan)), \(serialized) of \(fractions.count) repetitions below 0.9 (see co_scheduled_fraction: contended numbers from those may come from threads that took turns rather than ran together)"
        }
        return text
    }
}
