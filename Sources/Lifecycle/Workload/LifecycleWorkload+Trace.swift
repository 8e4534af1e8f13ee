import Timelines

extension LifecycleWorkload {
    package static let hasTrace = true

    /// An item's timeline: the app's phases (track `app`), main-thread work (`main`), saves
    /// (`storage`), refresh windows (`refresh`) as slices; kills, expirations and the watchdog as
    /// instants (`os`); the footprint as the `memory` counter. Recorded only when asked.
    package func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        guard !sample.trace.isEmpty else { return [] }
        return [item.trace(sample.mode, sample.trace)]
    }

    package func withoutTimeline(_ sample: Sample) -> Sample {
        var copy = sample
        copy.trace = []
        return copy
    }
}
