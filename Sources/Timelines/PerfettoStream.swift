import Records

/// A Perfetto trace written to disk one item at a time, as the run's items finish: memory holds
/// one item's packets, not the run's, and nothing is cut unless asked.
///
/// The bytes are `PerfettoTrace.encoded()` of the same items (`PerfettoTraceTests` checks it).
/// With a `limit`, each item keeps its earliest events up to a share of what is left — the
/// remaining budget over the items still to come — so a small item leaves room for later, larger
/// ones; the run says how much was dropped.
package struct PerfettoStream {
    private let file: SpoolFile
    private let window: Range<Int64>?
    private let limit: Int?
    private var pid = 0
    /// The next item's first track uuid.
    private var nextUUID: UInt64 = 1
    /// The encoder's buffer, reused by every item (its capacity stays at about one chunk); between
    /// items it holds the packets not yet a chunk's worth, handed on by `finish()`.
    private let buffer = PacketBuffer(capacity: PerfettoTrace.chunk + 4096)
    /// Events written so far.
    package private(set) var eventCount = 0
    /// Events dropped by `limit` so far.
    package private(set) var dropped = 0

    /// - Parameters:
    ///   - window: keep only events that start inside it (nanoseconds since each item's start).
    ///   - limit: the most events the trace may hold (nil: no cut).
    package init(file: SpoolFile, window: Range<Int64>? = nil, limit: Int? = nil) {
        self.file = file
        self.window = window
        self.limit = limit
        FreedMemory.keepForReuse()
    }

    /// Writes one finished matrix item's traces; `itemsLeft` counts it and the items still to
    /// come (what `limit` is shared among).
    package mutating func add(_ traces: [ItemTrace], itemsLeft: Int) throws(AtomicFile.WriteError) {
        guard !traces.isEmpty else { return }
        var share = Int.max
        if let limit { share = max(0, limit - eventCount) / max(1, itemsLeft) / traces.count }
        for var trace in traces {
            if let window {
                trace.expandRuns()
                trace.events.removeAll { !window.contains($0.startNanoseconds) }
            }
            if trace.eventCount > share {
                trace.expandRuns()
                trace.events.sort { $0.startNanoseconds < $1.startNanoseconds }
                dropped += trace.events.count - share
                trace.events.removeLast(trace.events.count - share)
            }
            eventCount += trace.eventCount
            pid += 1
            do {
                nextUUID = try PerfettoTrace.encode(trace, pid: pid, firstUUID: nextUUID, into: buffer, keepingTail: true) {
                    try file.append(bytes: $0)
                }
            } catch let error as AtomicFile.WriteError {
                throw error
            } catch {
                throw AtomicFile.WriteError(path: file.path, reason: "\(error)")
            }
        }
    }

    /// Flushes the trace (the last items' packets, held until a chunk was full); `commit()` on
    /// the result puts it in place.
    package func finish() throws(AtomicFile.WriteError) -> AtomicFile.Staged {
        if buffer.count > 0 {
            try file.append(bytes: buffer.bytes)
            buffer.removeAll()
        }
        return try file.finish()
    }
}
