import Measurement
import Records

extension FanOutWorkload: RegistryWorkload {
    /// What `--list` prints, every variant labelled with its origin.
    public static func catalogue(variants: VariantRegistry<FanOutVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init("scenarios (--scenario)", FanOutScenario.catalogue.map { .init($0.name, $0.summary, isDefault: true) }),
                .init(
                    "live only (--mode live --scenario)",
                    [
                        .init(
                            overheadScenario,
                            "per-child cost of a DispatchGroup child and a TaskGroup child (ns, wall and CPU)",
                            isDefault: true
                        )
                    ]
                ),
                .init("variants (--variant)", variants.catalogueEntries),
            ],
            footer: [
                "flows (--flows): per item, open-loop (mean gap 1.5 s); sim default 300 (100 with --quick), live 60 (20)",
                "services: log-normal (profile 80, tickets 120, favourites 100, movie 60, batch 70+5/movie ms medians, σ 0.5),",
                "  1% stall ×8, 0.5% fail, timeout 3 s; main: 60 Hz frames of 4 ms, tap 0.2 ms, UI update 2 ms; handlers 0.1 ms",
                "live (--mode live): the same draws, latencies × --time-scale (default 0.1), real sleeps, beside the simulation",
            ]
        )
    }

    /// Every parameter of the run, for the JSON metadata.
    public var parameters: [String: JSONValue] {
        let costs = FlowCosts()
        var out = matrixParameters(mode: configuration.mode, seeds: seeds, variants: variants.map(\.name), quick: selection.quick)
        out.merge([
            "shapes": .object(Dictionary(uniqueKeysWithValues: variants.map { ($0.name, JSONValue.string($0.shape.summary)) })),
            "flows": .number(Double(flows)),
            "tap_ms": .number(costs.tap.milliseconds),
            "callback_ms": .number(costs.callback.milliseconds),
            "ui_update_ms": .number(costs.uiUpdate.milliseconds),
            "frame_work_ms": .number(costs.frameWork.milliseconds),
            "frame_interval_ms": .number(costs.frameInterval.milliseconds),
        ]) { $1 }
        out["scenarios"] = .array(
            scenarios.map { s in
                .object([
                    "name": .string(s.name), "batched_movies": .bool(s.batchedMovies), "mean_gap_ms": .number(s.meanGap.milliseconds),
                    "sigma": .number(s.services.sigma), "stall_probability": .number(s.services.stallProbability),
                    "stall_factor": .number(s.services.stallFactor), "failure_probability": .number(s.services.failureProbability),
                    "timeout_ms": .number(s.services.timeout.milliseconds),
                ])
            }
        )
        if configuration.mode == .live {
            out["time_scale"] = .number(timeScale)
            out["children"] = .number(Double(children))
        }
        return out
    }

}
