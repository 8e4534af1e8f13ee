import Measurement
import Records

extension CacheWorkload: RegistryWorkload {
    /// What `--list` prints, with every variant of `variants` labelled with its origin.
    public static func catalogue(variants: VariantRegistry<CacheVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init(
                    "scenarios (--scenario, sim)",
                    CacheScenario.catalogue.map {
                        .init($0.name, "\($0.summary) [\($0.profile.name) cache, \($0.profile.maxSize)]", isDefault: true)
                    }
                ),
                .init(
                    "live operations (--operation, --mode live)",
                    LiveOperation.allCases.map { .init($0.rawValue, $0.summary, isDefault: true) }
                ),
                .init("variants (--variant)", variants.catalogueEntries),
                .init("contexts (--context, sim)", ProcessContext.allCases.map { .init($0.rawValue, $0.summary, isDefault: true) }),
            ],
            footer: [
                "capacities (--capacity): sim default sweeps Signal's caller sizes \(CacheProfile.signalSizes.map(String.init).joined(separator: ", ")) in main-app,",
                "  and each trace's own cache size in nse and share-extension; live default 32, 1024, 4000 (16000 on request: O(n²) to fill the O(n) generations)",
                "threads (--threads, live): default 1, 4, 16 (signal-2018 has no lock: 1 only)",
                "backing store: 50 us + Exp(mean 30 us) per read (a SQLite point read; see docs/bench-cache.md)",
            ]
        )
    }

    /// Every parameter of the run, for the JSON metadata.
    public var parameters: [String: JSONValue] {
        var out = matrixParameters(mode: configuration.mode, seeds: seeds, variants: variants.map(\.name), quick: selection.quick)
        out.merge([
            "store_base_us": .number(Double(configuration.store.base.nanoseconds) / 1000),
            "store_tail_mean_us": .number(Double(configuration.store.tailMean.nanoseconds) / 1000),
            "rewarm_window_reads": .number(Double(RewarmAnalysis.window)),
            "rewarm_recovered_fraction": .number(RewarmAnalysis.recoveredFraction),
        ]) { $1 }
        let costs = OperationCostModel()
        out["op_cost_model_ns"] = .object([
            "fixed": .number(Double(costs.fixed.nanoseconds)), "array_allocation": .number(Double(costs.arrayAllocation.nanoseconds)),
            "per_entry": .number(Double(costs.perEntry.nanoseconds)), "lock": .number(Double(costs.lock.nanoseconds)),
        ])
        if let userTrace {
            out["trace"] = .object([
                "file": .string(userTrace.path), "reads": .number(Double(userTrace.keys.count)),
                "distinct_keys": .number(Double(userTrace.distinctKeys)), "checksum": .string(userTrace.checksum),
            ])
        }
        if configuration.mode == .sim {
            out["contexts"] = .array(contexts.map { .string($0.rawValue) })
            out["reads"] = .number(Double(items.first?.trace?.keys.count ?? 0))
            out["scenarios"] = .array(
                scenarios.map { s in
                    .object([
                        "name": .string(s.name), "summary": .string(s.summary), "cache": .string(s.profile.name),
                        "max_size": .number(Double(s.profile.maxSize)), "nse_max_size": .number(Double(s.profile.nseMaxSize)),
                        "evacuates_in_background": .bool(s.profile.evacuatesInBackground),
                        "interval_ms": .number(s.interval.milliseconds),
                        "events": .array(s.events.map { .string("\($0.event.rawValue)@\($0.fraction)") }),
                    ])
                }
            )
        } else if let live {
            out["duration_s"] = .number(live.duration.seconds)
            out["allocator"] = .string(live.jemalloc.map { "jemalloc \($0.version)" } ?? "system (allocations not counted)")
        }
        return out
    }
}
