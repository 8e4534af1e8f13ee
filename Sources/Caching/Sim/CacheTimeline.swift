import Simulation
import Timelines

/// A simulated cache's timeline, written read by read while recording (a run that does not record
/// never creates one): read `i` happens at `i × interval` of virtual time.
///
/// Track `reads`: a hit as a `hit` instant, a miss as a `miss` slice as long as its get, store read
/// and set took (misses that outlast the interval overlap and go to extra lanes, which is how a miss
/// storm looks); the key is each one's value. Track `lifecycle`: a `clear` instant for each read
/// index the cache was cleared before (what `clears` counts), the event's name on every lifecycle
/// event. Counters: `occupancy` (entries, when it changes) and `hit ratio` over each window of
/// `window` reads, at the window's end — after a clear it drops to the miss storm and climbs back.
struct CacheTimeline {
    let interval: SimDuration
    let window: Int
    private(set) var events: [TraceEvent] = []
    private var windowHits = 0
    private var windowReads = 0
    private var lastOccupancy = -1
    private var lastClear: Int64 = -1
    private var lastRead: Int64 = 0
    /// The names, made once per timeline: a literal at each read was looked up per event.
    private let names = Names()

    private struct Names {
        let reads: TraceName = "reads"
        let hit: TraceName = "hit"
        let miss: TraceName = "miss"
        let lifecycle: TraceName = "lifecycle"
        let clear: TraceName = "clear"
        let hitRatio: TraceName = "hit ratio"
        let ratio: TraceName = "ratio"
        let occupancy: TraceName = "occupancy"
        let entries: TraceName = "entries"
    }

    init(interval: SimDuration, reads: Int) {
        self.interval = interval
        // About 200 points across the trace, never windows under 50 reads.
        window = max(50, reads / 200)
        // At most a read's event and an occupancy sample per read, plus the windows' samples:
        // room made once instead of the array moved at each doubling (the copies and the fresh
        // pages they touch were a tenth of what a traced default run added). Room
        // never written takes no memory.
        events.reserveCapacity(2 * reads + reads / window + 64)
    }

    private func time(_ read: Int) -> Int64 { interval.nanoseconds * Int64(read) }

    mutating func lifecycle(_ event: LifecycleEvent, before read: Int, cleared: Bool, counted: Bool) {
        let t = time(read)
        events.append(.instant(TraceName(event.rawValue), on: names.lifecycle, at: t))
        guard cleared else { return }
        // Several clears before one read count once (`clears`), so they draw once.
        if counted, lastClear != t {
            lastClear = t
            events.append(.instant(names.clear, on: names.lifecycle, at: t))
        }
        occupancy(0, at: t)
    }

    mutating func read(_ index: Int, key: Int, hit: Bool, cost: SimDuration, occupancy count: Int) {
        let t = time(index)
        lastRead = t
        if hit {
            events.append(.instant(names.hit, on: names.reads, at: t, value: Double(key)))
        } else {
            events.append(.slice(names.miss, on: names.reads, start: t, duration: cost.nanoseconds, value: Double(key)))
        }
        occupancy(count, at: t)
        windowReads += 1
        if hit { windowHits += 1 }
        if windowReads == window { flushWindow(at: t) }
    }

    mutating func finish() {
        if windowReads > 0 { flushWindow(at: lastRead) }
    }

    private mutating func flushWindow(at t: Int64) {
        events.append(.counter(names.hitRatio, unit: names.ratio, at: t, value: Double(windowHits) / Double(windowReads)))
        windowHits = 0
        windowReads = 0
    }

    private mutating func occupancy(_ count: Int, at t: Int64) {
        guard count != lastOccupancy else { return }
        lastOccupancy = count
        events.append(.counter(names.occupancy, unit: names.entries, at: t, value: Double(count)))
    }
}
