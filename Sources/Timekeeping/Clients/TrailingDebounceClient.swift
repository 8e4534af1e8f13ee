import Records

/// The article's description of `DebouncedEvent` lastOnly — *not* Signal's code: every request
/// cancels the timer and restarts the countdown (`now + interval`), so the event fires only once
/// the clock shows a quiet interval. A classic trailing debounce; under a steady stream of
/// requests closer together than the interval it never fires.
///
/// Kept beside `LastOnlyDebounceClient` (Signal's semantics) so the difference is measured on the
/// same requests.
public struct TrailingDebounceClient<Clock: ClockSource>: TimingClient {
    /// A request belonging to burst `burst`.
    public enum Event: Sendable { case request(burst: Int) }
    public static var kind: ClientKind { .debounceArticle }

    let clock: Clock
    let interval: Int64
    var deadline: Int64?
    var armedBy = 0
    var requestsTrue: [Int64] = []
    /// The last request of each burst, by burst index.
    var lastRequestTrue: [Int64] = []
    /// Fires by the burst whose request armed them.
    var fires: [Int: [Int64]] = [:]
    var fireTimes: [Int64] = []

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.interval = nanoseconds(parameters.debounceSeconds)
    }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        DebounceWorkload.requests(plan).map { Timed($0.time, .request(burst: $0.burst)) }
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        guard case .request(let burst) = event else { return }
        requestsTrue.append(trueTime)
        deadline = clock.now() &+ interval
        armedBy = burst
        while lastRequestTrue.count <= burst { lastRequestTrue.append(trueTime) }
        lastRequestTrue[burst] = trueTime
    }

    public var wakeDeadline: Int64? { deadline }

    public mutating func wake(trueTime: Int64) {
        guard let d = deadline, clock.now() >= d else { return }
        fires[armedBy, default: []].append(trueTime)
        fireTimes.append(trueTime)
        deadline = nil
    }

    /// Per burst, the ideal fire is its last request + interval (what a trailing debounce promises
    /// on a perfect clock). Early: fires before that (a burst cut in two). Late: the burst's last
    /// fire after it. Never: the burst was only delivered by a later burst's fire, or not at all.
    public func observations(_ context: ScoringContext) -> [Observation] {
        var early = 0, late = 0, never = 0, maxError = 0.0, fireCount = 0
        for (burst, last) in lastRequestTrue.enumerated() {
            let list = fires[burst] ?? []
            fireCount += list.count
            guard !list.isEmpty else {
                never += 1
                continue
            }
            let errors = list.map { context.error(fired: $0, ideal: last + interval) }
            early += errors.filter { $0 < -context.tolerance }.count
            if errors.last! > context.tolerance { late += 1 }
            maxError = max(maxError, Double(errors.map { abs($0) }.max()!))
        }
        let wait = DebounceWorkload.maxWait(requests: requestsTrue, fires: fireTimes, horizon: context.horizon)
        return [
            Observation("fires", Double(fireCount), "count"),
            Observation("fires_ideal", Double(lastRequestTrue.count), "count"),
            Observation("timeouts_early", Double(early), "count"),
            Observation("timeouts_late", Double(late), "count"),
            Observation("timeouts_never", Double(never), "count"),
            Observation("timeout_error_ms", maxError / 1e6, "ms"),
            Observation("max_wait_ms", Double(wait) / 1e6, "ms"),
        ]
    }
}
