import Timelines

extension InvalidationWorkload {
    public static let hasTrace = true

    /// The simulation's timeline of an item (`InvalidationSimulation+Trace`), in sim and in live
    /// mode alike. Live runs add none: the three processes report only their tallies, and timing
    /// every write, post and read in them would change what they measure.
    public func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        guard !sample.simTrace.isEmpty else { return [] }
        return [item.trace("sim", sample.simTrace)]
    }

    public func withoutTimeline(_ sample: Sample) -> Sample {
        var copy = sample
        copy.simTrace = []
        return copy
    }
}
