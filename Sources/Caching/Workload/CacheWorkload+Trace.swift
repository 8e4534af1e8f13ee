import Measurement

extension CacheWorkload {
    public static let hasTrace = true

    /// A sim item's timeline (`CacheTimeline`): its reads, lifecycle events and clears, occupancy
    /// and windowed hit ratio. Live items record none: they time millions of operations per second
    /// on real threads, and putting each on a timeline would be most of what they measure.
    public func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        guard case .sim(let result) = sample, !result.trace.isEmpty else { return [] }
        return [
            ItemTrace(
                scenario: item.scenario,
                variant: item.variant.name,
                mode: "sim",
                seed: item.seed,
                repetition: item.repetition,
                events: result.trace,
                detail: "\(item.context.rawValue) \(item.capacity)"
            )
        ]
    }
}
