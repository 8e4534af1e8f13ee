import Timelines

// What each client did, as events on its own track (the client's name), in true time. A client
// keeps what it needs only after `recordTrace()`; those that already keep it for scoring turn it
// into events after the run. Milliseconds are the unit of every value. Each appends to one array
// (no array per request: a run has millions, and `--perfetto` should cost little beside it).

@inline(__always) private func ms(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e6 }

/// "fired early" / "fired late" for a fire `error` away from its ideal time (nothing when on time).
private func lateness(_ error: Int64, at time: Int64, on track: TraceName, _ context: ScoringContext) -> TraceEvent? {
    if error > context.tolerance { return .instant("fired late", on: track, at: time, value: ms(error)) }
    if error < -context.tolerance { return .instant("fired early", on: track, at: time, value: ms(error)) }
    return nil
}

extension DurationMeterClient {
    public mutating func recordTrace() { measured = [] }

    /// A `measure` slice per job (its true length; value: measured − true), and a
    /// `negative duration` instant where the clock said the job took less than nothing.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out: [TraceEvent] = []
        out.reserveCapacity(measured?.count ?? 0)
        for m in measured ?? [] {
            out.append(.slice("measure", on: track, start: m.start, duration: m.end - m.start, value: ms(m.measured - (m.end - m.start))))
            if m.measured < 0 { out.append(.instant("negative duration", on: track, at: m.end, value: ms(m.measured))) }
        }
        return out
    }
}

extension TimeoutClient {
    /// A `timeout` slice from arming to firing (value: fired − due), `fired late` / `fired early`
    /// instants, and `never fired` at the arming of a deadline that never fired.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out: [TraceEvent] = []
        for i in armedTrue.keys.sorted() {
            let armed = armedTrue[i]!
            guard let fired = firedTrue[i] else {
                out.append(.instant("never fired", on: track, at: armed))
                continue
            }
            let error = context.error(fired: fired, ideal: armed + timeout)
            out.append(.slice("timeout", on: track, start: armed, duration: fired - armed, value: ms(error)))
            if let late = lateness(error, at: fired, on: track, context) { out.append(late) }
        }
        return out
    }
}

extension RateLimiterClient {
    public mutating func recordTrace() { decisions = [] }

    /// An `admit` or `reject` instant per request, and the bucket's `tokens` counter after it.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out: [TraceEvent] = []
        out.reserveCapacity(2 * (decisions?.count ?? 0))
        for d in decisions ?? [] {
            out.append(.instant(d.admitted ? "admit" : "reject", on: track, at: d.time))
            out.append(.counter("tokens", unit: "tokens", at: d.time, value: d.tokens))
        }
        return out
    }
}

extension LastOnlyDebounceClient {
    /// A `request` instant per request, a `debounce` slice from enqueueing to firing (value:
    /// fired − due), a `fire` instant per fire, `fired late` / `fired early`, and `never fired`
    /// for a request still enqueued at the end.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out = requestsTrue.map { TraceEvent.instant("request", on: track, at: $0) }
        for c in cycles {
            let error = context.error(fired: c.fired, ideal: c.enqueued + interval)
            out.append(.slice("debounce", on: track, start: c.enqueued, duration: c.fired - c.enqueued, value: ms(error)))
            out.append(.instant("fire", on: track, at: c.fired))
            if let late = lateness(error, at: c.fired, on: track, context) { out.append(late) }
        }
        if deadline != nil { out.append(.instant("never fired", on: track, at: enqueuedTrue)) }
        return out
    }
}

extension TrailingDebounceClient {
    /// A `request` instant per request, a `fire` instant per fire, `fired early` for any fire
    /// before its burst's last request + interval, `fired late` when a burst's last fire is late,
    /// and `never fired` at the last request of a burst that never fired.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out = requestsTrue.map { TraceEvent.instant("request", on: track, at: $0) }
        out += fireTimes.map { TraceEvent.instant("fire", on: track, at: $0) }
        for (burst, last) in lastRequestTrue.enumerated() {
            let list = fires[burst] ?? []
            guard !list.isEmpty else {
                out.append(.instant("never fired", on: track, at: last))
                continue
            }
            for (k, fired) in list.enumerated() {
                let error = context.error(fired: fired, ideal: last + interval)
                if error < -context.tolerance || (k == list.count - 1 && error > context.tolerance),
                    let event = lateness(error, at: fired, on: track, context)
                {
                    out.append(event)
                }
            }
        }
        return out
    }
}

extension TTLCacheClient {
    public mutating func recordTrace() { wrong = [] }

    /// An `insert` instant per entry, and per wrong lookup an `expired early` (a live entry the
    /// clock called expired; value: its true age) or `stale hit` (an expired entry served).
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out = insertedTrue.keys.sorted().map { TraceEvent.instant("insert", on: track, at: insertedTrue[$0]!) }
        for w in wrong ?? [] {
            let age = w.time - (insertedTrue[w.entry] ?? w.time)
            out.append(.instant(w.early ? "expired early" : "stale hit", on: track, at: w.time, value: ms(age)))
        }
        return out
    }
}

extension CallDurationClient {
    public mutating func recordTrace() { recorded = ([], []) }

    /// A `call start` instant per call, and a `wrong display` instant (value: shown − true) per
    /// tick that showed the wrong whole tick.
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        guard let recorded else { return [] }
        return recorded.starts.map { TraceEvent.instant("call start", on: track, at: $0) }
            + recorded.wrong.map { TraceEvent.instant("wrong display", on: track, at: $0.time, value: ms($0.error)) }
    }
}

extension AdaptiveGateClient {
    public mutating func recordTrace() { published = [] }

    /// A `publish` instant per publish (value: commits published), `publish early` where it came
    /// sooner than the fastest interval allows, and the gate's `target interval` counter, sampled
    /// at the first publish and at each publish that changed it (a counter holds its value until
    /// the next sample; in the default run no item's target moved: 110 samples, not 408,422).
    public func trace(_ context: ScoringContext) -> [TraceEvent] {
        let track = TraceName(Self.kind.name)
        var out: [TraceEvent] = []
        out.reserveCapacity(published?.count ?? 0)
        var target: Double?
        for p in published ?? [] {
            out.append(.instant("publish", on: track, at: p.time, value: Double(p.commits)))
            if p.target * 1000 != target {
                out.append(.counter("target interval", unit: "ms", at: p.time, value: p.target * 1000))
                target = p.target * 1000
            }
            if p.early { out.append(.instant("publish early", on: track, at: p.time)) }
        }
        return out
    }
}
