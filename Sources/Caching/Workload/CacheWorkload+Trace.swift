import Timelines

extension CacheWorkload {
    public static let hasTrace = true

    /// A sim item's timeline (`CacheTimeline`): its reads, lifecycle events and clears, occupancy
    /// and windowed hit ratio. A live item's (`LiveCacheTimeline`): a track per worker thread with
    /// its sampled get/set batches or its clears, and a `done` instant carrying its operations.
    public func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        let events: [TraceEvent]
        let mode: String
        let detail: String
        switch sample {
        case .sim(let result):
            (events, mode, detail) = (result.trace, "sim", "\(item.context.rawValue) \(item.capacity)")
        case .live(let result):
            (events, mode, detail) = (result.trace, "live", "\(item.capacity) \(item.threads)t")
        }
        guard !events.isEmpty else { return [] }
        return [
            ItemTrace(
                scenario: item.scenario,
                variant: item.variant.name,
                mode: mode,
                seed: item.seed,
                repetition: item.repetition,
                events: events,
                detail: detail
            )
        ]
    }

    public func withoutTimeline(_ sample: Sample) -> Sample {
        switch sample {
        case .sim(var result):
            result.trace = []
            return .sim(result)
        case .live(var result):
            result.trace = []
            return .live(result)
        }
    }
}
