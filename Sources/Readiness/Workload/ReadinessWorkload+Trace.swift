import Timelines

extension ReadinessWorkload {
    package static let hasTrace = true

    /// An item's timelines, one per mode it ran in (`LaunchRecorder.timeline`): the simulated
    /// launch, and in live mode the real launch's blocks and ready points, or the re-entry probes'
    /// children (a track per probe; traps and deadlocks as instants). `concurrent-first-use`
    /// records none: its threads race through first use in microseconds and report only tallies.
    package func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        var traces: [ItemTrace] = []
        for (mode, events) in [("sim", sample.simTrace), ("live", sample.liveTrace)] where !events.isEmpty {
            traces.append(
                ItemTrace(
                    scenario: item.scenario.rawValue,
                    variant: Self.variantName(item),
                    mode: mode,
                    seed: item.seed,
                    repetition: item.repetition,
                    events: events,
                    detail: Self.globalsName(item)
                )
            )
        }
        return traces
    }

    package func withoutTimeline(_ sample: Sample) -> Sample {
        var copy = sample
        copy.simTrace = []
        copy.liveTrace = []
        return copy
    }
}
