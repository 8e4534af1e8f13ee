import Measurement

/// The tracks every bench-clock client's timeline shares: the skew schedule on a `clock` track and
/// the client's `clock error` counter.
///
/// `clock` holds an instant per schedule change at its true time: `step` (value: seconds),
/// `slew` and `slew end` (ppm), `drift` and `drift end` (ppm), `suspend` (value: seconds asleep)
/// and `resume`. `clock error` is the client's clock reading minus true time, both counted from
/// the start of the run, in ms: sampled at every event of the client and on both sides of every
/// schedule change, so a step shows as a step.
enum ClockTrace {
    static func events(
        _ clientEvents: [TraceEvent],
        scenario: SkewScenario,
        schedule: ClockSchedule,
        source: ClockKind
    ) -> [TraceEvent] {
        var out = clientEvents
        var times: [Int64] = [0]
        times.reserveCapacity(2 * clientEvents.count + 4 * scenario.events.count + 1)
        out.reserveCapacity(out.count + 2 * scenario.events.count + times.capacity)
        for e in clientEvents {
            times.append(e.startNanoseconds)
            if e.kind == .slice { times.append(e.startNanoseconds + e.durationNanoseconds) }
        }
        for e in scenario.events {
            let at = ClockSchedule.ns(e.at), end = ClockSchedule.ns(e.end)
            switch e.kind {
            case .step:
                out.append(.instant("step", on: "clock", at: at, value: e.value))
            case .slew:
                out.append(.instant("slew", on: "clock", at: at, value: e.value))
                out.append(.instant("slew end", on: "clock", at: end))
            case .drift:
                out.append(.instant("drift", on: "clock", at: at, value: e.value))
                if e.duration > 0 { out.append(.instant("drift end", on: "clock", at: end)) }
            case .suspend:
                out.append(.instant("suspend", on: "clock", at: at, value: e.duration))
                out.append(.instant("resume", on: "clock", at: end))
            }
            times += [at - 1, at, end - 1, end]
        }
        let origin = schedule.reading(source, at: 0)
        times.sort()  // sorted and each time once: what a Set would give, without hashing every event
        for (k, t) in times.enumerated() where t >= 0 && (k == 0 || times[k - 1] != t) {
            let error = schedule.reading(source, at: t) &- origin &- t
            out.append(.counter("clock error", unit: "ms", at: t, value: Double(error) / 1e6))
        }
        return out
    }
}
