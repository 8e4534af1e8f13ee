import Measurement
import Records

extension ThrottleWorkload: RegistryWorkload {
    /// What `--list` prints with `variants` registered (each labelled with its origin).
    public static func catalogue(variants: VariantRegistry<ThrottlerVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init("scenarios (--scenario)", ThrottleScenario.catalogue.map { .init($0.name, $0.summary) }),
                .init("variants (--variant)", variants.catalogueEntries),
            ],
            footer: ["devices (--device): \(DeviceProfile.all.map(\.name).joined(separator: ", "))"]
                + ThrottlePipeline.allCases.map {
                    "pipeline (--pipeline) \($0.rawValue)\($0 == .conversation ? " [default]" : ""): \($0.summary)"
                }
        )
    }

    /// Every parameter of the run, for the JSON metadata.
    public var parameters: [String: JSONValue] {
        var out = configuration.policyParameters.metadata
        out.merge(matrixParameters(mode: configuration.mode, seeds: seeds, variants: policies.map(\.name), quick: selection.quick)) { $1 }
        if let userTrace {
            out["trace"] = .string(userTrace.path)
            out["trace_summary"] = userTrace.description
        }
        if configuration.mode == .live { out["background_threads"] = .number(Double(configuration.backgroundThreads)) }
        out["scenarios"] = .array(scenarios.map(describe))
        return out
    }

    func describe(_ s: ThrottleScenario) -> JSONValue {
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
            "device": .object(s.device.metadata),
        ])
    }
}
