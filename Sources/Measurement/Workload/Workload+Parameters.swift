import Records

extension Workload {
    /// The run parameters every matrix workload's JSON metadata names alike (`mode`, `seeds`,
    /// `variants`, `quick`, `items`), written once so that they cannot drift apart between
    /// workloads; a workload's `parameters` adds its own to these.
    public func matrixParameters(mode: RunMode, seeds: [UInt64], variants: [String], quick: Bool) -> [String: JSONValue] {
        [
            "mode": .string(mode.rawValue),
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "variants": .array(variants.map { .string($0) }),
            "quick": .bool(quick),
            "items": .number(Double(items.count)),
        ]
    }
}
