import HeapModule

/// A time-ordered queue of simulation events with a stable order for simultaneous events.
///
/// Events at the same instant come out by priority (lower first), then in the order they were
/// scheduled (a sequence number breaks ties), so a run never depends on the heap's internal
/// layout: that is what makes two runs with the same seed identical event for event.
public struct EventQueue<Event>: Sendable where Event: Sendable {
    @usableFromInline struct Entry: Comparable, Sendable {
        @usableFromInline let time: SimInstant
        @usableFromInline let priority: UInt8
        @usableFromInline let sequence: UInt64
        @usableFromInline let event: Event

        @inlinable init(time: SimInstant, priority: UInt8, sequence: UInt64, event: Event) {
            self.time = time
            self.priority = priority
            self.sequence = sequence
            self.event = event
        }

        @inlinable static func < (lhs: Entry, rhs: Entry) -> Bool {
            if lhs.time != rhs.time { return lhs.time < rhs.time }
            if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
            return lhs.sequence < rhs.sequence
        }

        @inlinable static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.time == rhs.time && lhs.sequence == rhs.sequence
        }
    }

    @usableFromInline var heap = Heap<Entry>()
    @usableFromInline var nextSequence: UInt64 = 0

    public init() {}

    @inlinable public var isEmpty: Bool { heap.isEmpty }
    @inlinable public var count: Int { heap.count }

    /// The time of the earliest event, if any.
    @inlinable public var nextTime: SimInstant? { heap.min?.time }

    /// Schedules `event` at `time`; among events at the same instant, lower `priority` runs first.
    @inlinable public mutating func schedule(_ event: Event, at time: SimInstant, priority: UInt8 = 0) {
        heap.insert(Entry(time: time, priority: priority, sequence: nextSequence, event: event))
        nextSequence &+= 1
    }

    /// Removes and returns the earliest event.
    @inlinable public mutating func next() -> (time: SimInstant, event: Event)? {
        guard let entry = heap.popMin() else { return nil }
        return (entry.time, entry.event)
    }
}
