import Measurement
import Records

extension ReadinessWorkload: RegistryWorkload {
    /// What `--list` prints, with every variant of `variants` labelled with its origin (and
    /// a footer line for each variant with one form only).
    package static func catalogue(variants: VariantRegistry<ReadinessVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init(
                    "scenarios (--scenario)",
                    ReadinessScenario.allCases.map { .init($0.rawValue, $0.summary, isDefault: !$0.isLiveOnly) }
                ),
                .init("variants (--variant)", variants.catalogueEntries),
                .init("globals (--globals)", GlobalsStrategy.allCases.map { .init($0.rawValue, $0.summary) }),
            ],
            footer: [
                "sim default: main-app, nse, share-extension x every variant x every globals x 5 seeds",
                "live default (--mode live): main-app (real threads, beside its simulation), reentrant-tasks, concurrent-first-use; 1 seed",
            ]
                + variants.variants.filter { !($0.hasSimForm && $0.hasLiveForm) }.map {
                    $0.hasSimForm
                        ? "\($0.name): sim form only (a ReadinessPolicy): not in reentrant-tasks"
                        : "\($0.name): live form only (a ReadinessAPI): reentrant-tasks only"
                }
        )
    }

    package var parameters: [String: JSONValue] {
        let p = configuration.frameAware
        var out = matrixParameters(mode: configuration.mode, seeds: seeds, variants: variants.map(\.name), quick: selection.quick)
        out.merge([
            "scenarios": .array(scenarios.map { .string($0.rawValue) }),
            "globals": .array(globals.map { .string($0.rawValue) }),
            "input_bound_ms": .number(p.inputBound.milliseconds),
            "long_quiet_ms": .number(p.longQuiet.milliseconds),
            "frame_margin_ms": .number(p.margin.milliseconds),
        ]) { $1 }
        let sample = profile(.mainApp)
        out["display_hz"] = .number(Double(sample.displayHz))
        out["input_rate_per_s"] = .number(sample.inputRate)
        out["input_window_ms"] = .array([.number(sample.inputStart.seconds * 1000), .number(sample.inputEnd.seconds * 1000)])
        out["frame_cost_ms"] = .number(sample.frameCost.milliseconds)
        out["input_cost_ms"] = .number(sample.inputCost.milliseconds)
        out["blocks"] = .object([
            "will": .number(Double(sample.willCount)), "did": .number(Double(sample.didCount)),
            "ui": .number(Double(sample.uiCount)), "polite": .number(Double(sample.politeCount)),
            "main_app_only_polite": .number(Double(sample.mainAppOnlyPolite)),
        ])
        out["duration_model"] = .string("bounded Pareto alpha 1.3, cap 400 ms; minimum will 0.1 ms, did 0.5 ms, ui 1 ms, polite 1 ms")
        out["services"] = .number(Double(sample.services))
        if let path = configuration.tracePath, let launch = recordedLaunch {
            // The recorded launch's blocks replace the generated ones (`LaunchPlan.fromTrace`).
            let kinds = launch.intervals.map { LaunchPlan.blockKind($0).rawValue }
            out["trace"] = .string(path)
            out["trace_process"] = .string(launch.process)
            out["blocks"] = .object(
                Dictionary(
                    uniqueKeysWithValues: BlockKind.allCases.map { k in
                        (k.rawValue, .number(Double(kinds.filter { $0 == k.rawValue }.count)))
                    }
                )
            )
            out["duration_model"] = .string("recorded: each block's duration is its signposted interval's")
        }
        if configuration.mode == .live {
            out["watchdog_s"] = .number(configuration.watchdog.seconds)
            out["probe_attempts"] = .number(Double(configuration.attempts))
            out["racing_threads"] = .number(Double(configuration.racingThreads))
        }
        return out
    }
}
