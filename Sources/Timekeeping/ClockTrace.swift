import Timelines

/// The tracks every bench-clock client's timeline shares: the skew schedule on a `clock` track and
/// the client's `clock error` counter.
///
/// `clock` holds an instant per schedule change at its true time: `step` (value: seconds),
/// `slew` and `slew end` (ppm), `drift` and `drift end` (ppm), `suspend` (value: seconds asleep)
/// and `resume`. `clock error` is the client's clock reading minus true time, both counted from
/// the start of the run, in ms: looked at at every event of the client (its start, and a slice's
/// end) and on both sides of every schedule change, so a step shows as a step, and written where
/// its value changes (and at 0). A counter holds its value until its next sample, so the track
/// shows exactly what one sample at every such time would show, with a sample fewer wherever the
/// clock kept time (about 40 % of the default run's samples; `ClockTraceTests`).
///
/// The events come out in time order — at one time the client's events, then the `clock`
/// instants, then the counter sample, each in the order it was made — which is the order the
/// encoder would otherwise sort them into (it checks, and then does not sort).
enum ClockTrace {
    static func events(
        _ clientEvents: [TraceEvent],
        scenario: SkewScenario,
        schedule: ClockSchedule,
        source: ClockKind
    ) -> [TraceEvent] {
        let client = clientEvents
        let order = timeOrder(client)
        // The k-th client event in time order, by index: reading its time copies no event.
        @inline(__always) func position(_ k: Int) -> Int {
            if let order { return Int(order[k]) }
            return k
        }

        var clock: [TraceEvent] = []
        var changes: [Int64] = []
        clock.reserveCapacity(2 * scenario.events.count)
        changes.reserveCapacity(4 * scenario.events.count)
        for e in scenario.events {
            let at = ClockSchedule.ns(e.at), end = ClockSchedule.ns(e.end)
            switch e.kind {
            case .step:
                clock.append(.instant("step", on: "clock", at: at, value: e.value))
            case .slew:
                clock.append(.instant("slew", on: "clock", at: at, value: e.value))
                clock.append(.instant("slew end", on: "clock", at: end))
            case .drift:
                clock.append(.instant("drift", on: "clock", at: at, value: e.value))
                if e.duration > 0 { clock.append(.instant("drift end", on: "clock", at: end)) }
            case .suspend:
                clock.append(.instant("suspend", on: "clock", at: at, value: e.duration))
                clock.append(.instant("resume", on: "clock", at: end))
            }
            changes += [at - 1, at, end - 1, end]
        }
        clock = timeOrder(clock).map { $0.map { clock[Int($0)] } } ?? clock
        changes.sort()
        var sliceEnds: [Int64] = []
        for e in client where e.kind == .slice { sliceEnds.append(e.startNanoseconds + e.durationNanoseconds) }
        sliceEnds.sort()

        let samples = errorSamples(
            starts: client.count,
            start: { client[position($0)].startNanoseconds },
            sliceEnds: sliceEnds,
            changes: changes,
            schedule: schedule,
            source: source
        )

        // Three streams in time order, merged; at one time the client's first, the counter last.
        var out: [TraceEvent] = []
        out.reserveCapacity(client.count + clock.count + samples.count)
        var a = 0, b = 0, c = 0
        // Made once, not per sample.
        let clockError: TraceName = "clock error"
        let ms: TraceName = "ms"
        while a < client.count || b < clock.count || c < samples.count {
            let ta = a < client.count ? client[position(a)].startNanoseconds : .max
            let tb = b < clock.count ? clock[b].startNanoseconds : .max
            let tc = c < samples.count ? samples[c].time : .max
            if a < client.count, ta <= tb, ta <= tc {
                out.append(client[position(a)])
                a += 1
            } else if b < clock.count, tb <= tc {
                out.append(clock[b])
                b += 1
            } else {
                out.append(.counter(clockError, unit: ms, at: samples[c].time, value: samples[c].value))
                c += 1
            }
        }
        return out
    }

    /// The `clock error` samples: the error at 0 and at every distinct time ≥ 0 among the client's
    /// event starts (`start(k)` for k < `starts`, in time order), its slice ends and the schedule's
    /// change times (both sorted), kept where the value differs from the sample before.
    static func errorSamples(
        starts: Int,
        start: (Int) -> Int64,
        sliceEnds: [Int64],
        changes: [Int64],
        schedule: ClockSchedule,
        source: ClockKind
    ) -> [(time: Int64, value: Double)] {
        let origin = schedule.reading(source, at: 0)
        var samples: [(time: Int64, value: Double)] = [(0, 0)]
        var segment = schedule.segmentIndex(0)
        var last: Int64 = 0
        var lastValue = 0.0
        var i = 0, j = 0, k = 0
        while i < starts || j < sliceEnds.count || k < changes.count {
            let ti = i < starts ? start(i) : .max
            let tj = j < sliceEnds.count ? sliceEnds[j] : .max
            let tk = k < changes.count ? changes[k] : .max
            let t = min(ti, tj, tk)
            if ti == t { i += 1 } else if tj == t { j += 1 } else { k += 1 }
            guard t > last else { continue }  // each time once, and none before 0
            last = t
            while segment + 1 < schedule.segments.count, schedule.segments[segment + 1].start <= t { segment += 1 }
            let error = schedule.reading(source, at: t, segment: segment) &- origin &- t
            let value = Double(error) / 1e6
            if value != lastValue {
                samples.append((t, value))
                lastValue = value
            }
        }
        return samples
    }

    /// The events' indices by start time, then index (a stable sort); nil when they are in order.
    static func timeOrder(_ events: [TraceEvent]) -> [Int32]? {
        var inOrder = true
        for i in events.indices.dropFirst() where events[i].startNanoseconds < events[i - 1].startNanoseconds {
            inOrder = false
            break
        }
        if inOrder { return nil }
        var keys = events.indices.map { (time: events[$0].startNanoseconds, index: Int32($0)) }
        keys.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        return keys.map(\.index)
    }
}
