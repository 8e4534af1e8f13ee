import Simulation

/// Timestamps from the last `length` of time, oldest first: Signal's 5 s of display-link ticks,
/// or the last second of presented frames.
///
/// An array with a moving start index, compacted when more than half of it is dead, so recording
/// is amortized O(1) and allocation-free in steady state.
public struct TimeWindow: Sendable {
    public let length: SimDuration
    var storage: [SimInstant] = []
    var start = 0

    public init(length: SimDuration) { self.length = length }

    public var count: Int { storage.count - start }
    public var first: SimInstant? { start < storage.count ? storage[start] : nil }
    public var last: SimInstant? { storage.last }

    /// Adds `time` (not earlier than the last one) and drops what is now more than `length` older.
    public mutating func record(_ time: SimInstant) {
        storage.append(time)
        while start < storage.count, time - storage[start] > length { start += 1 }
        if start > 64, start * 2 > storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// Drops the times that are `length` or more before `now` (Signal's `abs(sample − now) < 5 s`,
    /// applied when the interval is computed).
    public mutating func prune(at now: SimInstant) {
        while start < storage.count, now - storage[start] >= length { start += 1 }
    }

    public mutating func clear() {
        storage.removeAll(keepingCapacity: true)
        start = 0
    }

    /// How many recorded times lie within `length` before `now`.
    public func count(before now: SimInstant) -> Int {
        var n = 0
        var i = storage.count - 1
        while i >= start, now - storage[i] <= length {
            n += 1
            i -= 1
        }
        return n
    }
}
