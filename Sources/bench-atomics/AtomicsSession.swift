import BenchCommandLine
import Foundation
import Locking
import Measurement
import Simulation

/// One bench-atomics run: probes, the matrix loop, and the summary. The measuring is Locking's;
/// this only sequences it and hands the observations to `RunOutput`.
struct AtomicsSession {
    var options: AtomicsOptions
    var allocator: AllocatorSwitch.Active
    var quiet: Bool

    struct Result {
        var parameters: [String: JSONValue]
        var notes: [String]
        var table: String
        /// Set when a synchronized strategy lost updates: the run is written, then fails.
        var violation: String?
    }

    func run(into output: inout RunOutput) throws -> Result {
        let clock = SystemMonotonicClock()
        let cpuCount = ProcessInfo.processInfo.activeProcessorCount
        let calibration = SpinCalibration.measure(clock: clock)
        let probe = CoSchedulingProbe(clock: clock, pinning: options.pin, cpuCount: cpuCount)
        let probeBefore = options.probeDuration > 0 ? try? probe.run(seconds: options.probeDuration) : nil

        let settings = ContentionSettings(
            duration: options.duration, warmup: options.warmup, pinning: options.pin, cpuCount: cpuCount
        )
        let runner = ContentionRunner(clock: clock, calibration: calibration, settings: settings, jemalloc: allocator.jemalloc)
        let plan = options.plan
        var cells = plan.cells
        if let shard = options.common.shard { cells = shard.select(cells) }
        let seeds = options.common.seedList(default: 3)
        var progress = Progress(total: plan.pairCount(cells) * seeds.count, quiet: quiet)
        var lost: [String] = []
        var pinFailures = 0
        let started = clock.nanoseconds()

        for cell in cells {
            let variants = plan.variants(for: cell)
            for variant in variants {
                try mapFailure { () throws(ContentionRunner.Failure) in
                    try runner.warmUp(cell, variant: variant, seed: seeds[0])
                }
            }
            // Repetition-major within a cell, so that slow drift of a noisy host spreads evenly
            // over the strategies being compared.
            for (repetition, seed) in seeds.enumerated() {
                for variant in variants {
                    let sample = try mapFailure { () throws(ContentionRunner.Failure) in
                        try runner.measure(cell, variant: variant, seed: seed)
                    }
                    output.add(sample.observations(), scenario: cell.operation.name, variant: variant.name, mode: "live",
                               seed: seed, repetition: repetition, factors: cell.factors)
                    pinFailures += sample.pinFailures
                    if variant.isSynchronized && sample.lostUpdates > 0 {
                        lost.append("\(variant.name) \(cell.operation.name) threads=\(cell.threads) lost \(sample.lostUpdates)")
                    }
                    progress.advance("\(cell.operation.name) \(variant.name) t=\(cell.threads)")
                }
            }
        }
        progress.finish()
        let matrixSeconds = Double(clock.nanoseconds() &- started) / 1e9
        let probeAfter = options.probeDuration > 0 ? try? probe.run(seconds: options.probeDuration) : nil

        output.records += ReferenceRatios.records(for: output.records)
        let summaries = Statistics.summarize(output.records)
        let overhead = ReferenceRatios.uncontendedOverhead(summaries)
        let cpuOverhead = ReferenceRatios.uncontendedOverhead(summaries, metric: "cpu_ns_per_op")

        var notes: [String] = []
        if BuildInfo.isDebug { notes.append("debug build: timings are not representative; use swift run -c release") }
        if !RegressionInjection.slowedVariants.isEmpty {
            notes.append("REGRESSION INJECTED for gate testing (\(RegressionInjection.variable)): \(RegressionInjection.slowedVariants.sorted().joined(separator: ", ")) do 25 % more lock operations")
        }
        notes.append(Self.probeNote(before: probeBefore, after: probeAfter, samples: output.records))
        if let overhead {
            var text = "uncontended pthread-mutex wrapper vs C: \(TextTable.number(overhead.swift)) ns/op vs \(TextTable.number(overhead.c)) ns/op = \(TextTable.number(overhead.ratio))× (target ≤ 1.15×)"
            if let cpuOverhead {
                text += "; by CPU time \(TextTable.number(cpuOverhead.swift)) vs \(TextTable.number(cpuOverhead.c)) ns/op = \(TextTable.number(cpuOverhead.ratio))×"
            }
            notes.append(text)
        }
        notes.append("allocator \(allocator.choice.rawValue)\(allocator.jemalloc.map { " \($0.version)" } ?? ""); allocation counting: \(allocator.countingMethod)")
        if pinFailures > 0 { notes.append("\(pinFailures) worker threads could not be pinned to a CPU") }
        if !lost.isEmpty { notes.append("LOST UPDATES in synchronized strategies: \(lost.joined(separator: "; "))") }

        var parameters: [String: JSONValue] = [
            "operations": .array(plan.operations.map { .string($0.name) }),
            "variants": .array(plan.variants.map { .string($0.name) }),
            "threads": .array(plan.threads.map { .number(Double($0)) }),
            "cs_work": .array(plan.csWorks.map { .string($0.label) }),
            "gap_work": .array(plan.gapWorks.map { .string($0.label) }),
            "duration_s": .number(options.duration),
            "warmup_s": .number(options.warmup),
            "repetitions": .number(Double(seeds.count)),
            "first_seed": .string(String(options.common.seed)),
            "full": .bool(options.full),
            "quick": .bool(options.common.quick),
            "pin": .bool(options.pin),
            "shard": options.common.shard.map { .string($0.description) } ?? .null,
            "batch_operations": .number(Double(settings.batch)),
            "probe_before_each_repetition_s": .number(settings.probeDuration),
            "spin_ns_per_iteration": .number(calibration.nanosecondsPerIteration),
            "cpu_count": .number(Double(cpuCount)),
            "allocator": .string(allocator.choice.rawValue),
            "allocation_counting": .string(allocator.countingMethod),
            "matrix_wall_s": .number(matrixSeconds),
            "co_scheduling_probe": .object([
                "duration_s": .number(options.probeDuration),
                "fast_threshold_ns": .number(Double(CoSchedulingProbe.fastThresholdNanoseconds)),
                "before": Self.json(probeBefore),
                "after": Self.json(probeAfter),
            ]),
        ]
        if let jemalloc = allocator.jemalloc {
            parameters["jemalloc_version"] = .string(jemalloc.version)
            parameters["jemalloc_library"] = allocator.library.map { .string($0) } ?? .null
        }
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

        var table = "bench-atomics on \(HostInfo.current.cpuModel) (\(cpuCount) CPUs), \(BuildInfo.configuration) build, allocator \(allocator.choice.rawValue)\n"
        table += "co-scheduling probe: \(Self.describe(probeBefore)) before, \(Self.describe(probeAfter)) after\n"
        table += ContentionReport.render(plan: plan, cells: cells, summaries: summaries)
        table += "\nmatrix wall time \(TextTable.number(matrixSeconds)) s\n"
        return Result(
            parameters: parameters, notes: notes, table: table,
            violation: lost.isEmpty ? nil : "synchronized strategies lost updates: \(lost.joined(separator: "; "))"
        )
    }

    func mapFailure<T>(_ body: () throws(ContentionRunner.Failure) -> T) throws -> T {
        do { return try body() } catch { throw BenchFailure.runtime(error.description) }
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

    /// The probe's one-line verdict, including the per-repetition probes' spread.
    static func probeNote(before: CoSchedulingResult?, after: CoSchedulingResult?, samples: [ResultRecord]) -> String {
        let fractions = samples.filter { $0.metric == "co_scheduled_fraction" }.map(\.value)
        var text = "co-scheduling probe: \(describe(before)) before the matrix, \(describe(after)) after"
        if !fractions.isEmpty {
            let serialized = fractions.filter { $0 < 0.9 }.count
            text += "; per-repetition probes: median \(TextTable.number(Statistics.median(fractions) ?? .nan)), \(serialized) of \(fractions.count) repetitions below 0.9 (see co_scheduled_fraction: contended numbers from those may come from threads that took turns rather than ran together)"
        }
        return text
    }
}
