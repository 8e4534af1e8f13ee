/// Results that finish out of order, handed on in order: the driver writes records, traces and the
/// report's aggregate in matrix order whatever `--jobs` is, so that a run's files are byte-identical
/// for any number of workers.
///
/// A position arrives at most once, with a value or with nothing (an item that failed: its place in
/// the order passes, nothing is written for it). `pop` hands on the next position once it has
/// arrived; a position that never arrives (an item an interrupt kept from starting) holds back the
/// ones after it until the run ends and `pop(skippingGaps: true)` passes over it.
struct ReorderBuffer<Value> {
    /// What arrived at a position.
    enum Arrival {
        case value(Value)
        /// The item ended without a value to hand on (it failed); the positions after it go on.
        case nothing
    }

    /// How many positions there are, `0..<count`.
    let count: Int
    /// The position `pop` hands on next.
    private(set) var next = 0
    /// What arrived before a position ahead of it was handed on.
    private var waiting: [Int: Arrival] = [:]

    init(count: Int) { self.count = count }

    /// Keeps what arrived at `position` until the positions before it have been handed on.
    mutating func arrive(_ arrival: Arrival, at position: Int) {
        precondition(
            (0..<count).contains(position) && position >= next && waiting[position] == nil,
            "position \(position) arrived twice or out of range"
        )
        waiting[position] = arrival
    }

    /// The next position and what arrived there, nil while it has not arrived or once every position
    /// has been handed on. With `skippingGaps` (when nothing more will arrive), a position that never
    /// arrived is passed over instead of waited for.
    mutating func pop(skippingGaps: Bool = false) -> (position: Int, arrival: Arrival)? {
        while next < count {
            let position = next
            guard let arrival = waiting.removeValue(forKey: position) else {
                guard skippingGaps else { return nil }
                next += 1
                continue
            }
            next += 1
            return (position, arrival)
        }
        return nil
    }
}
