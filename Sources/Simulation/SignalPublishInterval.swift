/// The arithmetic of Signal's adaptive UI-update gate (`DatabaseChangeObserver`), shared by the two
/// models of it — the throttle simulator's `SignalAdaptiveThrottler` and bench-clock's
/// `AdaptiveUpdateGate` — so that both decide every case, ties included, with Signal's operations.
///
/// Signal computes in `Double` seconds: `alpha = f.inverseLerp(20, 10, shouldClamp: true)`, that is
/// `clamp01((f − 20) / (10 − 20))`, and `alpha.lerp(1/20, 1/1)`, that is
/// `(0.05 × (1 − alpha)) + (1 × alpha)` (`SignalServiceKit/Util/Math+OWS.swift`); the gate is
/// `abs(lastPublish.timeIntervalSinceNow) >= interval`. The elapsed time is whatever the caller's
/// timestamps give as seconds: Signal's are `Date`s (a `Double` subtraction of seconds since
/// 2001-01-01, on a grid of 2^−23 s today), the throttle simulator's are monotonic integer
/// nanoseconds (`SimDuration.seconds`). That choice, not this arithmetic, decides an exact tie
/// (`docs/signal-fidelity.md`).
public enum SignalPublishInterval {
    /// The display link's preferred rate (light load) and half of it (heavy load), per second.
    public static let lightFrequency = 20.0
    public static let heavyFrequency = 10.0
    /// `1 / TimeInterval(20)` and `1 / TimeInterval(1)`, as Signal writes them.
    public static let fastInterval = 1 / 20.0
    public static let slowInterval = 1 / 1.0

    /// The interval for a measured link frequency (nil: fewer than 2 samples or first ≥ last, the
    /// fast interval), in seconds, with Signal's inverse lerp, clamp and lerp in that order.
    @inlinable
    public static func interval(forFrequency f: Double?) -> Double {
        guard let f else { return fastInterval }
        let value = (f - lightFrequency) / (heavyFrequency - lightFrequency)
        let alpha = max(0, min(1, value))
        return (fastInterval * (1 - alpha)) + (slowInterval * alpha)
    }

    /// Signal's gate: `abs(elapsed) >= interval`, both in seconds.
    @inlinable
    public static func isDue(elapsedSeconds elapsed: Double, interval: Double) -> Bool {
        abs(elapsed) >= interval
    }
}
