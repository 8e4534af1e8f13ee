/// How `--perfetto` draws an idle main thread: a stretch of frames with nothing else on their
/// track between them is one slice, `idle, N frames`, with the count as its `frames` argument.
///
/// bench-group's default run is ~88 % idle frames, one every 16.7 ms; drawn one slice each they
/// made the trace twice the run's CPU time, and on the timeline they are one grey band anyway.
/// Frames that do work (a frame with a value: the rows it applied) and lone idle frames stay
/// `frame` slices. `--events` lists every frame as before: this is the trace's drawing only.
extension ItemTrace {
    /// The name of a frame slice; one with no value did nothing but draw.
    static let frameName = "frame"

    /// Whether `event` is an idle frame: a `frame` slice with no value.
    static func isIdleFrame(_ event: TraceEvent) -> Bool {
        event.kind == .slice && event.value == nil && event.name == frameName
    }

    /// The slice that stands for `frames` idle frames from `start` to `end` on `track`.
    public static func idleStretch(on track: String, start: Int64, end: Int64, frames: Int) -> TraceEvent {
        TraceEvent(.idle, track: track, name: "idle, \(frames) frames", start: start, duration: max(0, end - start), value: Double(frames))
    }

    /// This timeline with each stretch of two or more idle frames on a track (in time order,
    /// then creation order, nothing else on that track between them) replaced by one
    /// `idleStretch`, in the place of its first frame; runs (`SliceRun`) become events. A
    /// timeline without idle frames comes back as it is.
    public func collapsingIdleFrames() -> ItemTrace {
        var tracks: [String] = []
        for event in events where Self.isIdleFrame(event) && !tracks.contains(event.track) { tracks.append(event.track) }
        for run in runs where run.count > 0 {
            // Runs hold idle frames; any other run (none is made) is drawn slice by slice.
            guard run.name == Self.frameName, run.period > 0 || run.count == 1 else {
                var expanded = self
                expanded.expandRuns()
                return expanded.collapsingIdleFrames()
            }
            if !tracks.contains(run.track) { tracks.append(run.track) }
        }
        guard !tracks.isEmpty else { return self }
        let runOrder = runs.indices.sorted { (runs[$0].position, $0) < (runs[$1].position, $1) }
        var collapsed = self
        var drop = [Bool](repeating: false, count: events.count)
        var dropRun = [Bool](repeating: false, count: runs.count)
        // A stretch's slice takes the place of its first frame: an event's index, or a run's.
        var atEvent: [Int: TraceEvent] = [:]
        var atRun: [Int: TraceEvent] = [:]
        for track in tracks {
            guard
                let pieces = Self.pieces(on: track, events: events, runs: runs, runOrder: runOrder),
                !pieces.isEmpty
            else {
                // A run with another entry of its track among its slices: drawn slice by slice.
                var expanded = self
                expanded.expandRuns()
                return expanded.collapsingIdleFrames()
            }
            var from = 0
            while from < pieces.count {
                var to = from
                var frames = 0
                var end = Int64.min
                while to < pieces.count {
                    let piece = pieces[to]
                    if piece.isRun {
                        let run = runs[piece.index]
                        frames += run.count
                        end = max(end, run.start + Int64(run.count - 1) * run.period + run.duration)
                    } else if Self.isIdleFrame(events[piece.index]) {
                        frames += 1
                        end = max(end, events[piece.index].startNanoseconds + events[piece.index].durationNanoseconds)
                    } else {
                        break
                    }
                    to += 1
                }
                if frames >= 2 {
                    let first = pieces[from]
                    let slice = Self.idleStretch(on: track, start: first.start, end: end, frames: frames)
                    if first.isRun { atRun[first.index] = slice } else { atEvent[first.index] = slice }
                    for piece in pieces[from..<to] {
                        if piece.isRun { dropRun[piece.index] = true } else { drop[piece.index] = true }
                    }
                }
                from = max(to, from + 1)
            }
        }
        // In creation order: runs before the event at their position, each kept run's slice (a
        // lone frame) or its stretch's slice in place.
        var out: [TraceEvent] = []
        out.reserveCapacity(events.count - drop.lazy.filter { $0 }.count + atEvent.count + atRun.count + runs.count)
        var next = 0
        func take(upTo position: Int) {
            while next < min(position, events.count) {
                if let slice = atEvent[next] { out.append(slice) }
                if !drop[next] { out.append(events[next]) }
                next += 1
            }
        }
        for r in runOrder {
            take(upTo: runs[r].position)
            if let slice = atRun[r] { out.append(slice) }
            if !dropRun[r] { for k in 0..<runs[r].count { out.append(runs[r].slice(k)) } }
        }
        take(upTo: events.count)
        collapsed.events = out
        collapsed.runs = []
        return collapsed
    }

    /// An entry of one track: an event, or a run's slices (by its index in `runs`).
    private struct Piece {
        var start: Int64
        /// The entry's place in creation order: runs come before the event at their position.
        var position: Int
        var rank: Int
        var index: Int
        var isRun: Bool
    }

    /// The entries of `track` in time order, then creation order; nil if a run's slices are not
    /// consecutive there (another entry starts among them).
    private static func pieces(on track: String, events: [TraceEvent], runs: [SliceRun], runOrder: [Int]) -> [Piece]? {
        var pieces: [Piece] = []
        for (i, event) in events.enumerated() where event.track == track {
            pieces.append(Piece(start: event.startNanoseconds, position: i, rank: 1, index: i, isRun: false))
        }
        for (rank, r) in runOrder.enumerated() where runs[r].count > 0 && runs[r].track == track {
            // Before the event at its position (rank 0 < 1 for any event), in order among runs.
            pieces.append(Piece(start: runs[r].start, position: runs[r].position, rank: rank - runOrder.count, index: r, isRun: true))
        }
        pieces.sort { ($0.start, $0.position, $0.rank) < ($1.start, $1.position, $1.rank) }
        for (j, piece) in pieces.enumerated() where piece.isRun && j + 1 < pieces.count {
            let run = runs[piece.index]
            let last = run.start + Int64(run.count - 1) * run.period
            let following = pieces[j + 1]
            if (following.start, following.position, following.rank) < (last, piece.position, piece.rank) { return nil }
        }
        return pieces
    }
}
