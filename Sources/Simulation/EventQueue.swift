/// A time-ordered queue of simulation events with a stable order for simultaneous events.
///
/// Events at the same instant come out by priority (lower first), then in the order they were
/// scheduled (a sequence number breaks ties), so a run never depends on the heap's internal
/// layout: that is what makes two runs with the same seed identical event for event. The order is
/// total, so any correct priority queue gives the same sequence of events; this one is a plain
/// binary heap specialised for its entry (priority and sequence packed into one key), which
/// needs fewer comparisons per event than swift-collections' min-max `Heap`.
public struct EventQueue<Event>: Sendable where Event: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let time: Int64
        /// `priority << 56 | sequence`: one comparison for both tie-breakers.
        @usableFromInline let key: UInt64
        @usableFromInline let event: Event

        @inlinable init(time: Int64, key: UInt64, event: Event) {
            self.time = time
            self.key = key
            self.event = event
        }

        @inlinable @inline(__always) func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : key < other.key
        }
    }

    @usableFromInline var heap: ContiguousArray<Entry> = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init() {}

    @inlinable public var isEmpty: Bool { heap.isEmpty }
    @inlinable public var count: Int { heap.count }

    /// The time of the earliest event, if any.
    @inlinable public var nextTime: SimInstant? { heap.first.map { SimInstant(nanoseconds: $0.time) } }

    @inlinable @inline(__always) static func key(priority: UInt8, sequence: UInt64) -> UInt64 {
        UInt64(priority) << 56 | (sequence & (1 << 56 - 1))
    }

    /// Schedules `event` at `time`; among events at the same instant, lower `priority` runs first.
    @inlinable public mutating func schedule(_ event: Event, at time: SimInstant, priority: UInt8 = 0) {
        let entry = Entry(time: time.nanoseconds, key: Self.key(priority: priority, sequence: takeSequence()), event: event)
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { h in
            // Sift the hole up from the end.
            var i = h.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard entry.precedes(h[parent]) else { break }
                h[i] = h[parent]
                i = parent
            }
            h[i] = entry
        }
    }

    /// Removes and returns the earliest event.
    @inlinable public mutating func next() -> (time: SimInstant, event: Event)? {
        guard let last = heap.popLast() else { return nil }
        if heap.isEmpty { return (SimInstant(nanoseconds: last.time), last.event) }
        let top = heap.withUnsafeMutableBufferPointer { h in
            let top = h[0]
            // Sift the hole down from the root, then put `last` in it.
            let n = h.count
            var i = 0
            while true {
                var child = 2 * i + 1
                if child >= n { break }
                if child + 1 < n, h[child + 1].precedes(h[child]) { child += 1 }
                guard h[child].precedes(last) else { break }
                h[i] = h[child]
                i = child
            }
            h[i] = last
            return top
        }
        return (SimInstant(nanoseconds: top.time), top.event)
    }

    /// The sequence number the next `schedule` would use, taken: for an event a driver keeps
    /// outside the queue (the next arrival of a stream) that must still order among the queued
    /// events exactly as if it had been scheduled now.
    @inlinable public mutating func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Whether the earliest queued event runs before an event kept outside the queue at `time`
    /// with `priority` and the `sequence` it took; false when the queue is empty.
    @inlinable public func nextPrecedes(time: SimInstant, priority: UInt8 = 0, sequence: UInt64) -> Bool {
        guard let first = heap.first else { return false }
        let t = time.nanoseconds
        return first.time != t ? first.time < t : first.key < Self.key(priority: priority, sequence: sequence)
    }
}
