import Measurement

extension ThrottleWorkload {
    public static var catalogue: WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init("scenarios (--scenario)", ThrottleScenario.catalog.map { .init($0.name, $0.summary) }),
                .init("variants (--variant)", ThrottlePolicy.allCases.map { .init($0.rawValue, $0.summary) }),
            ],
            footer: ["devices (--device): \(DeviceProfile.all.map(\.name).joined(separator: ", "))"]
        )
    }

    /// Every parameter of the run, for the JSON metadata.
    public var parameters: [String: JSONValue] {
        let p = configuration.policyParameters
        var out: [String: JSONValue] = [
            "mode": .string(configuration.mode.rawValue),
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "variants": .array(policies.map { .string($0.rawValue) }),
            "fixed_interval_ms": .number(p.fixedInterval.milliseconds),
            "debounce_ms": .number(p.debounceInterval.milliseconds),
            "max_age_ms": .number(p.maxAge.milliseconds),
            "quick": .bool(selection.quick),
            "items": .number(Double(items.count)),
        ]
        if let userTrace {
            out["trace"] = .string(userTrace.path)
            out["trace_summary"] = userTrace.description
        }
        if configuration.mode == .live { out["background_threads"] = .number(Double(configuration.backgroundThreads)) }
        out["scenarios"] = .array(scenarios.map(describe))
        return out
    }

    func describe(_ s: ThrottleScenario) -> JSONValue {
        let d = s.device
        var arrivals: [String: JSONValue] = ["model": .string(s.arrivals.name)]
        for (k, v) in s.arrivals.parameters { arrivals[k] = .number(v) }
        return .object([
            "name": .string(s.name),
            "summary": .string(s.summary),
            "duration_s": .number(s.duration.seconds),
            "vsync_hz": .number(Double(s.vsyncHz)),
            "load": .string(s.load.name),
            "bytes_per_pending_row": .number(Double(s.bytesPerPendingRow)),
            "arrivals": userTrace?.description ?? .object(arrivals),
            "device": .object([
                "name": .string(d.name),
                "frame_ms": .number(d.frameCost.milliseconds),
                "notification_ms": .number(d.notificationCost.milliseconds),
                "tick_ms": .number(d.tickCost.milliseconds),
                "update_fixed_ms": .number(d.updateFixed.milliseconds),
                "update_per_row_ms": .number(d.updatePerRowNs / 1e6),
                "update_per_row_squared_ms": .number(d.updatePerRowSquaredNs / 1e6),
                "reset_ms": .number(d.resetCost.milliseconds),
                "reset_threshold_rows": .number(Double(d.resetThreshold)),
            ]),
        ])
    }
}
