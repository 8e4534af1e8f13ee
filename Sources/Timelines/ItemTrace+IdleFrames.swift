/// How `--perfetto` draws an idle main thread: a stretch of frames with nothing else on their
/// track between them is one slice, `idle, N frames`, with the count as its `frames` argument.
///
/// bench-group's default run is ~88 % idle frames, one every 16.7 ms; drawn one slice each they
/// made the trace twice the run's CPU time, and on the timeline they are one grey band anyway.
/// Frames that do work (a frame with a value: the rows it applied) and lone idle frames stay
/// `frame` slices. `--events` lists every frame as before: this is the trace's drawing only.
extension ItemTrace {
    /// The name of a frame slice; one with no value did nothing but draw.
    static let frameName: TraceName = "frame"

    /// Whether `event` is an idle frame: a `frame` slice with no value.
    static func isIdleFrame(_ event: TraceEvent) -> Bool {
        event.kind == .slice && event.value == nil && event.number < 0 && event.textName == frameName
    }

    /// `isIdleFrame` of the event at `event`, read in place.
    @inline(__always) static func isIdleFrame(_ event: UnsafePointer<TraceEvent>, frame: TraceName = frameName) -> Bool {
        event.pointee.kind == .slice && event.pointee.value == nil && event.pointee.number < 0 && event.pointee.textName == frame
    }

    /// The slice that stands for `frames` idle frames from `start` to `end` on `track`.
    public static func idleStretch(on track: String, start: Int64, end: Int64, frames: Int) -> TraceEvent {
        idleStretch(on: TraceName(track), named: TraceName("idle, \(frames) frames"), start: start, end: end, frames: frames)
    }

    /// `idleStretch` with its name given: the collapse makes each `idle, N frames` once per item
    /// (`IdleStretchNames`), so that its stretches share the string.
    static func idleStretch(on track: TraceName, named name: TraceName, start: Int64, end: Int64, frames: Int) -> TraceEvent {
        TraceEvent(.idle, track: track, name: name, start: start, duration: max(0, end - start), value: Double(frames))
    }

    /// Each count's `idle, N frames`, made once per collapse. A default bench-group run draws
    /// ~86,000 stretches of a few hundred distinct counts: one string each was an interpolation,
    /// a string to free, and, being new storage, a miss of the encoder's name cache (which knows
    /// a string by its two words) and a lookup of its characters.
    ///
    /// Counts below `direct` are found by index, not hashed: a dictionary's lookups were about
    /// 18 samples of a traced default bench-group run's 3,176 (`perf record -F 4000`).
    struct IdleStretchNames {
        private var byCount: [TraceName?] = []
        private var names: [Int: TraceName] = [:]
        /// Counts below this are kept in `byCount` (8 bytes each, grown as needed).
        static let direct = 4096

        mutating func name(_ frames: Int) -> TraceName {
            if frames >= 0, frames < Self.direct {
                if frames < byCount.count, let known = byCount[frames] { return known }
                if frames >= byCount.count { byCount += repeatElement(nil, count: frames + 1 - byCount.count) }
                let name = TraceName("idle, \(frames) frames")
                byCount[frames] = name
                return name
            }
            if let known = names[frames] { return known }
            let name = TraceName("idle, \(frames) frames")
            names[frames] = name
            return name
        }
    }

    /// This timeline with each stretch of two or more idle frames on a track (in time order,
    /// then creation order, nothing else on that track between them) replaced by one
    /// `idleStretch`, in the place of its first frame; runs (`SliceRun`) become events. A
    /// timeline without idle frames comes back as it is.
    public func collapsingIdleFrames() -> ItemTrace {
        guard let collapsed = collapsedTimeline() else {
            // A run with another entry of its track among its slices, or a run of other slices
            // (none is made): drawn slice by slice.
            var expanded = self
            expanded.expandRuns()
            return expanded.collapsingIdleFrames()
        }
        guard !collapsed.isUnchanged else { return self }
        var out = self
        out.events = collapsed.handles.map { $0 < events.count ? events[Int($0)] : collapsed.extras[Int($0) - events.count] }
        out.runs = []
        return out
    }

    /// `collapsingIdleFrames()` by reference, for the encoder: no copy of the events it keeps.
    struct CollapsedTimeline {
        /// The collapsed timeline in creation order: `h` below the item's `events.count` is
        /// `events[h]`, any other is `extras[h - events.count]`.
        var handles: [Int32]
        /// The stretches' slices and the slices of runs kept as they are.
        var extras: [TraceEvent]
        /// Nothing to collapse: the timeline is `events` as they are (and `runs` hold no slice);
        /// `handles` is then empty rather than one per event.
        var isUnchanged = false
    }

    /// The collapsed timeline as handles into `events` and extra slices, or nil when the runs
    /// must be expanded first (a run that is not idle frames, or one with another entry of its
    /// track among its slices). A traced default bench-group run copied its ~1 M kept events
    /// into a new array to collapse them (and freed the copy after): handles cost 4 bytes each.
    func collapsedTimeline() -> CollapsedTimeline? {
        var tracks: [TraceName] = []
        let frame = Self.frameName
        events.withUnsafeBufferPointer { events in
            for i in events.indices where Self.isIdleFrame(events.baseAddress.unsafelyUnwrapped + i, frame: frame) {
                if !tracks.contains(events[i].trackName) { tracks.append(events[i].trackName) }
            }
        }
        for run in runs where run.count > 0 {
            // Runs hold idle frames; any other run (none is made) is drawn slice by slice.
            guard run.sliceName == frame, run.period > 0 || run.count == 1 else { return nil }
            if !tracks.contains(run.trackName) { tracks.append(run.trackName) }
        }
        guard !tracks.isEmpty else {
            return CollapsedTimeline(handles: [], extras: [], isUnchanged: true)
        }
        let runOrder = runs.indices.sorted { (runs[$0].position, $0) < (runs[$1].position, $1) }
        // What becomes of each event and run: `keep`, `drop` (a frame inside a stretch), or the
        // index in `stretches` of the stretch whose first frame it is (dropped, the stretch's
        // slice in its place). One array of fates instead of a set and a dictionary: a traced
        // default bench-group run looked up a dictionary for each of its ~1 M events.
        var eventFate = [Int32](repeating: Self.keep, count: events.count)
        var runFate = [Int32](repeating: Self.keep, count: runs.count)
        var stretches: [TraceEvent] = []
        var stretchNames = IdleStretchNames()
        for track in tracks {
            guard
                let pieces = Self.pieces(on: track, events: events, runs: runs, runOrder: runOrder),
                !pieces.isEmpty
            else { return nil }
            var from = 0
            while from < pieces.count {
                var to = from
                var frames = 0
                var end = Int64.min
                while to < pieces.count, pieces[to].idleFrames > 0 {
                    frames += pieces[to].idleFrames
                    end = max(end, pieces[to].end)
                    to += 1
                }
                if frames >= 2 {
                    let first = pieces[from]
                    for piece in pieces[from..<to] {
                        if piece.isRun { runFate[piece.index] = Self.drop } else { eventFate[piece.index] = Self.drop }
                    }
                    let stretch = Int32(stretches.count)
                    if first.isRun { runFate[first.index] = stretch } else { eventFate[first.index] = stretch }
                    stretches.append(
                        Self.idleStretch(on: track, named: stretchNames.name(frames), start: first.start, end: end, frames: frames)
                    )
                }
                from = max(to, from + 1)
            }
        }
        // In creation order: runs before the event at their position, each kept run's slice (a
        // lone frame) or its stretch's slice in place.
        let n = Int32(events.count)
        var extras: [TraceEvent] = []
        var handles: [Int32] = []
        handles.reserveCapacity(
            events.count + stretches.count + zip(runs, runFate).reduce(0) { $0 + ($1.1 == Self.keep ? $1.0.count : 0) }
        )
        func extra(_ slice: TraceEvent) {
            handles.append(n + Int32(extras.count))
            extras.append(slice)
        }
        var next = 0
        func take(upTo position: Int) {
            while next < min(position, events.count) {
                let fate = eventFate[next]
                if fate == Self.keep {
                    handles.append(Int32(next))
                } else if fate >= 0 {
                    extra(stretches[Int(fate)])
                }
                next += 1
            }
        }
        for r in runOrder {
            take(upTo: runs[r].position)
            let fate = runFate[r]
            if fate >= 0 { extra(stretches[Int(fate)]) }
            if fate == Self.keep { for k in 0..<runs[r].count { extra(runs[r].slice(k)) } }
        }
        take(upTo: events.count)
        return CollapsedTimeline(handles: handles, extras: extras)
    }

    /// An event's or run's fate in `collapsedTimeline`: kept as it is.
    private static let keep: Int32 = -1
    /// A frame of a stretch that is not its first: drawn by the stretch's slice.
    private static let drop: Int32 = -2

    /// An entry of one track: an event, or a run's slices (by its index in `runs`).
    private struct Piece {
        var start: Int64
        /// The entry's place in creation order: runs come before the event at their position.
        var position: Int
        var rank: Int
        var index: Int
        var isRun: Bool
        /// How many idle frames it is (a run's count, 1 for an idle frame, 0 for anything else)
        /// and when the last of them ends: read once here, where the event is read in place, so
        /// that the stretch loop reads pieces only, not the 40-byte events again.
        var idleFrames = 0
        var end: Int64 = .min
    }

    /// The entries of `track` in time order, then creation order; nil if a run's slices are not
    /// consecutive there (another entry starts among them).
    private static func pieces(on track: TraceName, events: [TraceEvent], runs: [SliceRun], runOrder: [Int]) -> [Piece]? {
        var pieces: [Piece] = []
        let frame = Self.frameName
        events.withUnsafeBufferPointer { events in
            for i in events.indices where events[i].trackName == track {
                let event = events.baseAddress.unsafelyUnwrapped + i
                var piece = Piece(start: event.pointee.startNanoseconds, position: i, rank: 1, index: i, isRun: false)
                if Self.isIdleFrame(event, frame: frame) {
                    piece.idleFrames = 1
                    piece.end = event.pointee.startNanoseconds + event.pointee.durationNanoseconds
                }
                pieces.append(piece)
            }
        }
        runs.withUnsafeBufferPointer { runs in
            for (rank, r) in runOrder.enumerated() where runs[r].count > 0 && runs[r].trackName == track {
                // Before the event at its position (rank 0 < 1 for any event), in order among runs.
                let run = runs.baseAddress.unsafelyUnwrapped + r
                var piece = Piece(
                    start: run.pointee.start,
                    position: run.pointee.position,
                    rank: rank - runOrder.count,
                    index: r,
                    isRun: true
                )
                // Every run holds idle frames (`collapsedTimeline` checked it).
                piece.idleFrames = run.pointee.count
                piece.end = run.pointee.start + Int64(run.pointee.count - 1) * run.pointee.period + run.pointee.duration
                pieces.append(piece)
            }
        }
        func before(_ a: Piece, _ b: Piece) -> Bool { (a.start, a.position, a.rank) < (b.start, b.position, b.rank) }
        // Most of a track's entries come in time order already: sorted only if they do not.
        if zip(pieces, pieces.dropFirst()).contains(where: { before($1, $0) }) { pieces.sort(by: before) }
        for (j, piece) in pieces.enumerated() where piece.isRun && j + 1 < pieces.count {
            let last = piece.start + Int64(piece.idleFrames - 1) * runs[piece.index].period
            let following = pieces[j + 1]
            if (following.start, following.position, following.rank) < (last, piece.position, piece.rank) { return nil }
        }
        return pieces
    }
}
