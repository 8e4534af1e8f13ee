import Measurement
import Records

extension InvalidationWorkload {
    public static var catalogue: WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init("scenarios (--scenario)", InvalidationScenario.catalogue.map { .init($0.name, $0.summary, isDefault: true) }),
                .init("variants (--variant)", InvalidationVariant.allCases.map { .init($0.rawValue, $0.summary, isDefault: true) }),
            ],
            footer: [
                "modes (--mode): sim (virtual time, default), live (3 real processes, SQLite WAL, FIFO notification channels)",
                "defaults: 3 seeds, 60 s per scenario, UI-refresh debounce 3 s firstLast (--debounce-s), cache 64 entries",
            ]
        )
    }

    public var parameters: [String: JSONValue] {
        var out = matrixParameters(mode: configuration.mode, seeds: seeds, variants: variants.map(\.rawValue), quick: selection.quick)
        out.merge([
            "debounce_s": .number(configuration.debounceSeconds),
            "scenarios": .array(scenarios.map(Self.describe)),
        ]) { $1 }
        if configuration.mode == .live {
            out["live_channel"] = .string(
                "one FIFO per (listener, name), drained in full per handler run; legacy state: a shared file holding the writer's pid"
            )
            out["live_database"] = .string("SQLite (system libsqlite3) in WAL mode, one connection per process plus an audit connection")
        }
        return out
    }

    static func describe(_ s: InvalidationScenario) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(s.name), "summary": .string(s.summary), "duration_s": .number(s.duration.seconds),
            "keys": .number(Double(s.keys)), "hot_keys": .number(Double(s.hotKeys)), "hot_fraction": .number(s.hotFraction),
            "main_cache_capacity": .number(Double(s.mainCacheCapacity)), "share_cache_capacity": .number(Double(s.shareCacheCapacity)),
            "main_reads_per_s": .number(s.mainReadsPerSecond), "main_writes_per_s": .number(s.mainWritesPerSecond),
            "nse_pushes_per_s": .number(s.nsePushesPerSecond), "share_sessions_per_s": .number(s.shareSessionsPerSecond),
            "share_session_s": .number(s.shareSessionLength.seconds), "share_reads_per_s": .number(s.shareReadsPerSecond),
            "max_keys_per_write": .number(Double(s.maxKeysPerWrite)),
            "delivery_base_ms": .number(s.deliveryBase.milliseconds), "delivery_jitter_mean_ms": .number(s.deliveryJitterMean.milliseconds),
        ]
        if let a = s.activeFor, let i = s.inactiveFor {
            o["active_s"] = .number(a.seconds)
            o["inactive_s"] = .number(i.seconds)
        }
        return .object(o)
    }
}
