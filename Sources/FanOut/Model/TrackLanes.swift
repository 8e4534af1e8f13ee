import Simulation
import Timelines

/// Timeline tracks for spans that overlap: each span, taken in start order, goes on the lowest
/// lane free at its start (`"worker 1"`, `"worker 2"`, …), so a viewer shows no two at once on
/// one track and uses as few tracks as the overlap needs.
struct TrackLanes {
    let prefix: String
    private var ends: [SimInstant] = []
    /// Each lane's track name, made once rather than once per span.
    private var names: [TraceName] = []

    init(prefix: String) { self.prefix = prefix }

    /// The track of a span from `start` to `end`; spans must come in start order.
    mutating func track(start: SimInstant, end: SimInstant) -> TraceName {
        let lane = ends.firstIndex { $0 <= start } ?? ends.count
        if lane == ends.count {
            ends.append(end)
            names.append(TraceName("\(prefix) \(lane + 1)"))
        } else {
            ends[lane] = end
        }
        return names[lane]
    }
}
