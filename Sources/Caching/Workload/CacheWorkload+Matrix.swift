import Measurement
import Records
import Simulation

extension CacheWorkload {
    /// What a mode's flags resolve to: the matrix's items and what they were built from.
    struct ResolvedCacheMatrix {
        var scenarios: [CacheScenario] = []
        var seeds: [UInt64]
        var userTrace: KeyTraceFile? = nil
        var live: LiveCacheBench? = nil
        var items: [Item]
    }

    /// `--mode sim`: every (trace, seed, context, capacity, variant) in virtual time; the trace of a
    /// scenario (or of `--trace`) is made once per seed and shared by its items.
    static func simMatrix(
        _ configuration: CacheConfiguration,
        selection: MatrixSelection,
        variants: [CacheVariant],
        contexts: [ProcessContext]
    ) throws -> ResolvedCacheMatrix {
        var items: [Item] = []
        guard configuration.threads.isEmpty, configuration.operations.isEmpty, configuration.duration == nil else {
            throw BenchFailure.usage("--threads, --operation and --duration apply to --mode live only")
        }
        let scenarios: [CacheScenario]
        let userTrace: KeyTraceFile?
        if let path = configuration.tracePath {
            guard selection.scenarios.isEmpty else {
                throw BenchFailure.usage("--scenario and --trace cannot be combined: the trace is the scenario")
            }
            guard configuration.reads == nil else {
                throw BenchFailure.usage("--reads and --trace cannot be combined: the trace has its own length")
            }
            let file = try KeyTraceFile(path: path)
            userTrace = file
            scenarios = [
                CacheScenario(
                    name: "trace-\(file.name)",
                    summary: "replay of \(path)",
                    shape: nil,
                    profile: .interaction,
                    events: [],
                    interval: .milliseconds(5)
                )
            ]
        } else {
            userTrace = nil
            scenarios = try MatrixSelection.resolve(
                selection.scenarios,
                flag: "--scenario",
                from: CacheScenario.catalogue,
                name: \.name
            )
        }
        let seeds = selection.seeds(default: userTrace == nil ? 2 : 1)
        let reads = configuration.reads ?? (selection.quick ? 3_000 : 10_000)
        var samplers: [String: ZipfSampler] = [:]
        func zipf(_ n: Int, _ s: Double) -> ZipfSampler {
            let key = "\(n)/\(s)"
            if let z = samplers[key] { return z }
            let z = ZipfSampler(n: n, skew: s)
            samplers[key] = z
            return z
        }
        for scenario in scenarios {
            for (repetition, seed) in seeds.enumerated() {
                let trace =
                    userTrace.map { AccessTrace(keys: $0.keys, interval: scenario.interval) }
                    ?? scenario.trace(count: reads, seed: seed, zipf: zipf)
                for context in contexts {
                    let sizes: [Int]
                    if !configuration.capacities.isEmpty {
                        sizes = configuration.capacities
                    } else if context == .mainApp {
                        sizes = CacheProfile.signalSizes
                    } else {
                        sizes = [scenario.profile.maxSize]
                    }
                    for size in sizes {
                        for variant in variants {
                            items.append(
                                Item(
                                    scenario: scenario.name,
                                    variant: variant,
                                    seed: seed,
                                    repetition: repetition,
                                    context: context,
                                    capacity: size,
                                    threads: 1,
                                    trace: trace,
                                    profile: scenario.profile.withMaxSize(size),
                                    operation: nil
                                )
                            )
                        }
                    }
                }
            }
        }
        return ResolvedCacheMatrix(scenarios: scenarios, seeds: seeds, userTrace: userTrace, items: items)
    }

    /// `--mode live`: every (operation, capacity, threads, seed, variant) on the real classes; a
    /// variant that is not thread-safe runs single-threaded only.
    static func liveMatrix(
        _ configuration: CacheConfiguration,
        environment: Environment,
        variants: [CacheVariant],
        jemalloc: JemallocCounters?,
        clock: any MonotonicClock
    ) throws -> ResolvedCacheMatrix {
        let selection = environment.selection
        var items: [Item] = []
        guard configuration.tracePath == nil, selection.scenarios.isEmpty, configuration.reads == nil else {
            throw BenchFailure.usage("--trace, --scenario and --reads apply to --mode sim only (live mode: --operation)")
        }
        guard configuration.contexts.isEmpty else { throw BenchFailure.usage("--context applies to --mode sim only") }
        for t in configuration.threads where !(1...16).contains(t) {
            throw BenchFailure.usage("--threads must be between 1 and 16, got \(t)")
        }
        if let d = configuration.duration, !(d > 0 && d <= 60) {
            throw BenchFailure.usage("--duration must be a positive number of seconds up to 60, got \(d)")
        }
        let operations = try MatrixSelection.resolve(
            configuration.operations,
            flag: "--operation",
            from: LiveOperation.allCases,
            name: \.rawValue
        )
        let duration = configuration.duration ?? (selection.quick ? 0.05 : 0.2)
        let live = LiveCacheBench(
            clock: clock,
            duration: .seconds(duration),
            jemalloc: jemalloc,
            recordTimeline: environment.recordTimeline
        )
        let seeds = selection.seeds(default: selection.quick ? 1 : 3)
        let sizes = configuration.capacities.isEmpty ? [32, 1024, 4000] : configuration.capacities
        let threadCounts = configuration.threads.isEmpty ? [1, 4, 16] : configuration.threads
        for operation in operations {
            for size in sizes {
                let counts = operation == .get || operation == .set ? threadCounts : [1]
                for threads in counts {
                    for (repetition, seed) in seeds.enumerated() {
                        for variant in variants where threads == 1 || variant.isThreadSafe {
                            items.append(
                                Item(
                                    scenario: "live-\(operation.rawValue)",
                                    variant: variant,
                                    seed: seed,
                                    repetition: repetition,
                                    context: .mainApp,
                                    capacity: size,
                                    threads: threads,
                                    trace: nil,
                                    profile: CacheProfile.interaction.withMaxSize(size),
                                    operation: operation
                                )
                            )
                        }
                    }
                }
            }
        }
        return ResolvedCacheMatrix(seeds: seeds, live: live, items: items)
    }
}
