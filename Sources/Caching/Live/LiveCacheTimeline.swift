import Timelines

/// How a live get/set cell samples its calls for the timeline (`--perfetto`, `--events`): every
/// `every`-th batch of 32 calls is timed as a whole, up to `limit` batches per thread. Timing a
/// batch rather than each call keeps the cost to two clock reads per `every` × 32 calls
/// (docs/bench-cache.md has the measured cost: well under 1 %), and a batch is long enough to see.
struct LiveCacheSampling {
    var every = 64
    var limit = 5000
}

/// A live cell's timeline, built after the measurement from what the threads sampled (times are
/// nanoseconds since the threads were released, `origin`): a track per worker, `thread 1` …
/// `thread N`, with each sampled batch as a `get` or `set` slice (value: the 32 calls in it) or
/// each timed `clear()` as a `clear` slice (value: the entries cleared), then a `done` instant
/// whose value is the operations that thread completed (get/set: they add up to `ops`).
struct LiveCacheTimeline {
    let origin: Int64
    private(set) var events: [TraceEvent] = []
    private var last: [Int: Int64] = [:]

    init(origin: Int64) { self.origin = origin }

    private static func track(_ thread: Int) -> String { "thread \(thread + 1)" }

    mutating func slice(_ name: String, thread: Int, start: Int64, end: Int64, value: Double) {
        let from = max(0, start - origin)
        let to = max(from, end - origin)
        events.append(.slice(name, on: Self.track(thread), start: from, duration: to - from, value: value))
        last[thread] = to
    }

    mutating func done(thread: Int, operations: Int) {
        events.append(.instant("done", on: Self.track(thread), at: last[thread] ?? 0, value: Double(operations)))
    }
}
