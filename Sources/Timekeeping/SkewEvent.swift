/// One thing that happens to the clocks: what the kernel does on a step, an NTP slew, a suspend,
/// or an oscillator that runs off frequency.
public struct SkewEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// `settimeofday`/`clock_settime(CLOCK_REALTIME)`: the wall clock jumps by `value` seconds;
        /// no other clock moves.
        case step
        /// An NTP/chrony frequency correction of `value` ppm for `duration` seconds (`adjtimex`):
        /// CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME run at (1 + value·1e-6) of their rate;
        /// CLOCK_MONOTONIC_RAW does not.
        case slew
        /// The machine sleeps for `duration` seconds: CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW stop,
        /// CLOCK_BOOTTIME and CLOCK_REALTIME keep counting, the process does not run.
        case suspend
        /// The oscillator itself runs `value` ppm fast (negative: slow) for `duration` seconds (to the
        /// end of the run when 0) with nothing correcting it: every clock, CLOCK_MONOTONIC_RAW
        /// included, runs at (1 + value·1e-6) of true time. An extension of the three original kinds.
        case drift
    }

    public var at: Double
    public var kind: Kind
    /// Seconds for `step`, ppm for `slew` and `drift`, unused (0) for `suspend`.
    public var value: Double
    /// Seconds; 0 for `step` (and for `drift` meaning "to the end").
    public var duration: Double

    public init(at: Double, kind: Kind, value: Double = 0, duration: Double = 0) {
        self.at = at
        self.kind = kind
        self.value = value
        self.duration = duration
    }

    public static func step(at: Double, by seconds: Double) -> SkewEvent { SkewEvent(at: at, kind: .step, value: seconds) }
    public static func slew(at: Double, ppm: Double, for seconds: Double) -> SkewEvent {
        SkewEvent(at: at, kind: .slew, value: ppm, duration: seconds)
    }
    public static func suspend(at: Double, for seconds: Double) -> SkewEvent { SkewEvent(at: at, kind: .suspend, duration: seconds) }
    public static func drift(at: Double = 0, ppm: Double, for seconds: Double = 0) -> SkewEvent {
        SkewEvent(at: at, kind: .drift, value: ppm, duration: seconds)
    }

    /// The largest rate change accepted: ±1 000 000 ppm stops the clock or doubles its rate.
    public static let maxPPM = 1_000_000.0
    /// The largest step, start time or duration accepted: 100 years in seconds, so that every
    /// reading stays far inside `Int64` nanoseconds.
    public static let maxSeconds = 100 * 365.25 * 86_400.0

    /// End of the event's effect in seconds since the start of the run (`at` for steps).
    public var end: Double { at + duration }

    /// Why this event is invalid on its own, naming the field; nil when it is fine.
    public func problem() -> (field: String, message: String)? {
        guard at.isFinite else { return ("at_s", "must be a finite number, got \(at)") }
        guard at >= 0 else { return ("at_s", "must be ≥ 0, got \(at)") }
        guard at <= Self.maxSeconds else { return ("at_s", "\(at) is beyond 100 years") }
        guard value.isFinite else { return ("value", "must be a finite number, got \(value)") }
        guard duration.isFinite else { return ("duration_s", "must be a finite number, got \(duration)") }
        guard duration >= 0, duration <= Self.maxSeconds else { return ("duration_s", "must be between 0 and 100 years, got \(duration)") }
        switch kind {
        case .step:
            guard value != 0 else { return ("value", "a step needs a non-zero number of seconds") }
            guard abs(value) <= Self.maxSeconds else { return ("value", "a step of \(value) s is beyond ±100 years") }
            guard duration == 0 else { return ("duration_s", "a step is instantaneous; leave duration_s empty or 0") }
        case .slew, .drift:
            guard abs(value) <= Self.maxPPM else { return ("value", "\(value) ppm is beyond ±1000000 ppm") }
            if kind == .slew, duration <= 0 { return ("duration_s", "a slew needs a duration > 0 seconds") }
        case .suspend:
            guard value == 0 else { return ("value", "a suspend takes no value; leave it empty or 0") }
            guard duration > 0 else { return ("duration_s", "a suspend needs a duration > 0 seconds") }
        }
        return nil
    }
}
