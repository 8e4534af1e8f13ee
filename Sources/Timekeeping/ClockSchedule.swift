/// The simulated clock set: every clock's reading as a function of true time, obeying a scenario
/// the way the Linux kernel's timekeeping would.
///
/// True time (`t`, integer nanoseconds since the start of the run) is what a perfect reference
/// would measure. The readings are piecewise linear in `t`; a segment starts at every change:
/// - `step` adds to CLOCK_REALTIME only (`do_settimeofday64` moves the wall-to-monotonic offset);
/// - `slew` multiplies the rate of CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME (the NTP
///   frequency/tick adjustment scales the timekeeper's `mult`), not CLOCK_MONOTONIC_RAW;
/// - `drift` multiplies the rate of every clock, CLOCK_MONOTONIC_RAW included (the oscillator);
/// - `suspend` stops CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW; CLOCK_BOOTTIME and CLOCK_REALTIME
///   advance by the sleep (the kernel injects the sleep time measured by the persistent clock).
/// `Date()` is CLOCK_REALTIME seen through `Double` seconds (`DateQuantization`).
public struct ClockSchedule: Sendable {
    /// The clocks' readings at the start of the run (true time 0).
    public static let realtimeEpoch: Int64 = 1_795_219_200 * 1_000_000_000  // 2026-11-21T00:00:00Z
    public static let monotonicEpoch: Int64 = 259_200 * 1_000_000_000  // three days of uptime

    struct Segment: Sendable {
        var start: Int64
        var raw, mono, boot, real: Int64
        /// Rate minus one for CLOCK_MONOTONIC_RAW, and for the other three clocks.
        var rawK: Double, k: Double
        var suspended: Bool
        /// The index of the event whose start or end began this segment (−1 for the first), so that a
        /// reading out of range can be blamed on a line of the file.
        var cause: Int = -1
    }

    var segments: [Segment]
    /// Suspended stretches of true time, `[start, end)`, sorted.
    public private(set) var suspensions: [Range<Int64>]

    public init(events: [SkewEvent]) {
        enum Change {
            case step(Int64)
            case slewStart(Double)
            case slewEnd
            case driftStart(Double)
            case driftEnd, suspendStart, suspendEnd
        }
        var changes: [(time: Int64, order: Int, change: Change)] = []
        for (i, e) in events.enumerated() {
            let at = Self.ns(e.at)
            switch e.kind {
            case .step: changes.append((at, 2 * i + 1, .step(Self.ns(e.value))))
            case .slew:
                changes.append((at, 2 * i + 1, .slewStart(e.value)))
                changes.append((Self.ns(e.end), 2 * i, .slewEnd))
            case .drift:
                changes.append((at, 2 * i + 1, .driftStart(e.value)))
                if e.duration > 0 { changes.append((Self.ns(e.end), 2 * i, .driftEnd)) }
            case .suspend:
                changes.append((at, 2 * i + 1, .suspendStart))
                changes.append((Self.ns(e.end), 2 * i, .suspendEnd))
            }
        }
        // Ends (even order) sort before starts at the same instant, then file order.
        changes.sort { ($0.time, $0.order % 2, $0.order) < ($1.time, $1.order % 2, $1.order) }

        var current = Segment(
            start: 0,
            raw: Self.monotonicEpoch,
            mono: Self.monotonicEpoch,
            boot: Self.monotonicEpoch,
            real: Self.realtimeEpoch,
            rawK: 0,
            k: 0,
            suspended: false
        )
        var osc = 0.0, slew = 0.0
        var segments: [Segment] = []
        var suspensions: [Range<Int64>] = []
        var suspendStart: Int64 = 0
        for (time, order, change) in changes {
            if time != current.start {
                segments.append(current)
                current = Self.advance(current, to: time)
            }
            current.cause = order / 2
            switch change {
            case .step(let delta):
                current.real = Self.add(current.real, delta)
            case .slewStart(let ppm): slew = ppm
            case .slewEnd: slew = 0
            case .driftStart(let ppm): osc = ppm
            case .driftEnd: osc = 0
            case .suspendStart:
                current.suspended = true
                suspendStart = time
            case .suspendEnd:
                current.suspended = false
                suspensions.append(suspendStart..<time)
            }
            current.rawK = osc * 1e-6
            current.k = (1 + osc * 1e-6) * (1 + slew * 1e-6) - 1
        }
        segments.append(current)
        self.segments = segments
        self.suspensions = suspensions
    }

    public init(scenario: SkewScenario) { self.init(events: scenario.events) }

    /// Seconds to integer nanoseconds, rounded to nearest; saturates instead of trapping (an event's
    /// fields are at most 100 years, so an accepted file never comes near).
    static func ns(_ seconds: Double) -> Int64 {
        let n = ExactRounding.nearest(seconds * 1e9)
        guard n.isFinite, abs(n) < 9.2e18 else { return n > 0 ? .max : .min }
        return Int64(n)
    }

    /// `d` nanoseconds of true time at a rate of (1 + k), rounded to the nearest nanosecond (the
    /// kernel also keeps integer nanoseconds; rounding is monotone in `d` because k > −1).
    /// Saturates at the ends of `Int64` instead of trapping: `check(_:until:)` rejects any file
    /// whose readings come near them, so an accepted scenario never saturates.
    @inline(__always) static func scaled(_ d: Int64, _ k: Double) -> Int64 {
        if k == 0 { return d }
        let product = ExactRounding.nearest(Double(d) * k)
        guard abs(product) < 9.2e18 else { return product > 0 ? .max : .min }
        return add(d, Int64(product))
    }

    /// `a + b`, saturating at the ends of `Int64`: no clock path may trap or wrap.
    @inline(__always) static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func advance(_ s: Segment, to time: Int64) -> Segment {
        var next = s
        let d = time - s.start  // segments are sorted and start at ≥ 0: cannot overflow
        next.start = time
        if s.suspended {
            next.boot = add(s.boot, d)
            next.real = add(s.real, d)
        } else {
            next.raw = add(s.raw, scaled(d, s.rawK))
            next.mono = add(s.mono, scaled(d, s.k))
            next.boot = add(s.boot, scaled(d, s.k))
            next.real = add(s.real, scaled(d, s.k))
        }
        return next
    }

    func segmentIndex(_ t: Int64) -> Int {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The base clock a kind reads (`date` reads `realtime`).
    static func base(_ kind: ClockKind) -> ClockKind { kind == .date ? .realtime : kind }

    func value(_ kind: ClockKind, _ s: Segment, at t: Int64) -> Int64 {
        let d = t - s.start  // t ≥ s.start ≥ 0: cannot overflow
        switch kind {
        case .monotonicRaw: return s.suspended ? s.raw : Self.add(s.raw, Self.scaled(d, s.rawK))
        case .monotonic: return s.suspended ? s.mono : Self.add(s.mono, Self.scaled(d, s.k))
        case .boottime: return s.suspended ? Self.add(s.boot, d) : Self.add(s.boot, Self.scaled(d, s.k))
        case .realtime, .date: return s.suspended ? Self.add(s.real, d) : Self.add(s.real, Self.scaled(d, s.k))
        }
    }

    /// Rate minus one of `kind` in segment `s`; −1 means the clock stands still.
    func rateK(_ kind: ClockKind, _ s: Segment) -> Double {
        switch kind {
        case .monotonicRaw: s.suspended ? -1 : s.rawK
        case .monotonic: s.suspended ? -1 : s.k
        case .boottime, .realtime, .date: s.suspended ? 0 : s.k
        }
    }

    /// The reading of `kind` at true time `t`.
    public func reading(_ kind: ClockKind, at t: Int64) -> Int64 {
        reading(kind, at: t, segment: segmentIndex(t))
    }

    /// The reading of `kind` at true time `t` in segment `segment` (`segmentIndex(t)`): for a
    /// caller that walks times in order and keeps the segment instead of searching for it.
    /// Inlined into `reading(_:at:)`: as a call of its own it cost `SimulatedClock.now` 88 more
    /// instructions per reading (+55 %, the Timekeeping instruction-count kernels).
    @inline(__always)
    func reading(_ kind: ClockKind, at t: Int64, segment: Int) -> Int64 {
        let v = value(kind, segments[segment], at: t)
        return kind == .date ? DateQuantization.reading(realtimeNanoseconds: v) : v
    }

    /// The first true time ≥ `from` (and ≤ `limit`) at which `kind` reads at least `target`: when an
    /// absolute timer armed on that clock expires. nil if it does not happen by `limit`.
    ///
    /// Solved per segment, never walked: a reading is monotone within a segment, so the answer is
    /// the analytic estimate `(target − v₀) / (1 + k)` when the integer readings agree with it (the
    /// usual case, one or two evaluations) and otherwise a bisection over the segment, at most 64
    /// evaluations whatever the rate, even a clock slowed to 1 ns per 1 000 000 years.
    public func crossing(_ kind: ClockKind, reaching target: Int64, from: Int64, limit: Int64) -> Int64? {
        var goal = target
        if kind == .date { goal = Self.realtimeThreshold(forDate: target) }
        let base = Self.base(kind)
        var i = segmentIndex(from)
        var t0 = from
        while i < segments.count, t0 <= limit {
            let s = segments[i]
            let end = i + 1 < segments.count ? segments[i + 1].start : Int64.max
            let last = min(end - 1, limit)  // the last instant of this segment worth looking at
            // A stopped clock (rate −1) may already read past the goal after a step: test the
            // reading, never the rate (the bisection handles a flat segment).
            if t0 <= last, value(base, s, at: last) >= goal {
                return firstReaching(goal, base, s, from: t0, to: last)
            }
            i += 1
            t0 = end
        }
        return nil
    }

    /// The smallest t in `lo...hi` with value(t) ≥ goal, given value(hi) ≥ goal and a reading
    /// that does not decrease within the segment.
    func firstReaching(_ goal: Int64, _ base: ClockKind, _ s: Segment, from lo: Int64, to hi: Int64) -> Int64 {
        if value(base, s, at: lo) >= goal { return lo }
        // The estimate: exact for the usual rates, a starting point for the bisection otherwise.
        let v0 = value(base, s, at: s.start)
        let estimate = (Double(goal) - Double(v0)) / (1 + rateK(base, s)) + Double(s.start)
        var low = lo, high = hi  // invariant: value(low) < goal ≤ value(high)
        if estimate.isFinite, estimate > Double(lo), estimate < Double(hi) {
            let guess = Int64(estimate.rounded(.up))
            if value(base, s, at: guess) >= goal {
                if value(base, s, at: guess - 1) < goal { return guess }
                high = guess - 1
            } else {
                low = guess
            }
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if value(base, s, at: mid) >= goal { high = mid } else { low = mid }
        }
        return high
    }

    /// The smallest CLOCK_REALTIME reading whose `Date()` shows at least `target`.
    static func realtimeThreshold(forDate target: Int64) -> Int64 {
        var lo = add(target, -1_000_000), hi = add(target, 1_000_000)
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if DateQuantization.reading(realtimeNanoseconds: mid) >= target { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// `t`, or the end of the suspend it falls in: when a process frozen at `t` next runs.
    public func resume(_ t: Int64) -> Int64 { suspensions.suspension(containing: t)?.upperBound ?? t }

    /// Whether true time `t` falls inside a suspend.
    public func isSuspended(_ t: Int64) -> Bool { suspensions.suspension(containing: t) != nil }

    /// `windows` (true seconds) with every suspended stretch cut out, in nanoseconds. One sweep
    /// over the sorted suspensions per window, so 100 000 suspends cost no more than reading them.
    public func awakeWindows(_ windows: [ClosedRange<Double>]) -> [Range<Int64>] {
        var out: [Range<Int64>] = []
        for w in windows {
            var start = Self.ns(w.lowerBound)
            let end = Self.ns(w.upperBound)
            var j = suspensions.firstIndex(endingAfter: start)
            while j < suspensions.count, start < end, suspensions[j].lowerBound < end {
                let s = suspensions[j]
                if start < s.lowerBound { out.append(start..<s.lowerBound) }
                start = max(start, s.upperBound)
                j += 1
            }
            if start < end { out.append(start..<end) }
        }
        return out
    }

    /// The first pair of events that cannot both hold, as (index, earlier index, reason): slews
    /// overlapping slews, drifts overlapping drifts, anything inside a suspend.
    /// Events must be sorted by `at`; only events still in effect are compared, so a long file
    /// costs linear time.
    public static func conflict(in events: [SkewEvent]) -> (Int, Int, String)? {
        var open: [Int] = []
        for (i, e) in events.enumerated() {
            open.removeAll { j in
                let p = events[j]
                return !(p.kind == .drift && p.duration == 0) && max(p.end, p.at + 1e-9) <= e.at
            }
            defer { if e.kind != .step { open.append(i) } }
            for j in open {
                let p = events[j]
                let pEnd = p.kind == .drift && p.duration == 0 ? Double.infinity : p.end
                let overlaps = e.at < pEnd && p.at < (e.kind == .drift && e.duration == 0 ? .infinity : max(e.end, e.at + 1e-9))
                guard overlaps else { continue }
                if p.kind == .suspend || e.kind == .suspend {
                    if p.kind == .drift || e.kind == .drift { continue }
                    return (i, j, "overlaps a suspend: nothing can change the clocks while the machine sleeps")
                }
                if p.kind == e.kind, e.kind == .slew || e.kind == .drift {
                    return (i, j, "overlaps another \(e.kind.rawValue): the kernel has one frequency correction at a time")
                }
            }
        }
        return nil
    }
}
