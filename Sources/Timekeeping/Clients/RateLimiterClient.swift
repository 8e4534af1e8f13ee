import Records

/// A token bucket refilled by elapsed clock time, written the usual way:
/// `tokens = min(capacity, tokens + (now − last) · rate); last = now`. A backward step makes the
/// elapsed time negative and drains the bucket; a forward step refills it at once.
public struct RateLimiterClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case request }
    public static var kind: ClientKind { .rateLimiter }

    /// The bucket's state: the same code runs on the client's clock and, for the ideal count, on
    /// true time.
    struct Bucket {
        var tokens: Double
        var last: Int64?
        let rate: Double, capacity: Double

        mutating func admit(now: Int64, elapsed: (Int64, Int64) -> Int64) -> Bool {
            if let last { tokens = min(capacity, tokens + Double(elapsed(last, now)) / 1e9 * rate) }
            last = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }

    let clock: Clock
    var bucket: Bucket
    var ideal: Bucket
    var admitted = 0, idealAdmitted = 0, requests = 0
    /// (true time, admitted, tokens left) per request, when recording a trace.
    var decisions: [(time: Int64, admitted: Bool, tokens: Double)]?

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        bucket = Bucket(tokens: parameters.bucketCapacity, rate: parameters.rateLimitPerSecond, capacity: parameters.bucketCapacity)
        ideal = bucket
    }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        var rng = plan.generator(for: kind)
        return plan.poisson(rate: plan.parameters.offeredPerSecond, &rng).map { Timed($0, .request) }
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        requests += 1
        let clock = self.clock
        let admit = bucket.admit(now: clock.now(), elapsed: { clock.elapsed(from: $0, to: $1) })
        if admit { admitted += 1 }
        decisions?.append((trueTime, admit, bucket.tokens))
        if ideal.admit(now: trueTime, elapsed: { $1 - $0 }) { idealAdmitted += 1 }
    }

    public var wakeDeadline: Int64? { nil }
    public mutating func wake(trueTime: Int64) {}

    public func observations(_ context: ScoringContext) -> [Observation] {
        let base = Double(max(idealAdmitted, 1))
        return [
            Observation("requests", Double(requests), "count"),
            Observation("admissions", Double(admitted), "count"),
            Observation("admissions_ideal", Double(idealAdmitted), "count"),
            Observation("admissions_over_pct", Double(max(0, admitted - idealAdmitted)) / base * 100, "%"),
            Observation("admissions_under_pct", Double(max(0, idealAdmitted - admitted)) / base * 100, "%"),
        ]
    }
}
