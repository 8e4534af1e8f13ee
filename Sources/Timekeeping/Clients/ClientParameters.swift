/// The clients' knobs. Sim mode uses realistic values; live mode compresses them so a real run
/// takes seconds.
public struct ClientParameters: Hashable, Sendable, Codable {
    /// Duration meter: jobs per run, their true lengths log-uniform between the bounds (s).
    public var jobCount = 400
    public var jobMinSeconds = 0.001
    public var jobMaxSeconds = 10.0
    /// Timeout: length (s) and arming period (s).
    public var timeoutSeconds = 30.0
    public var timeoutEverySeconds = 10.0
    /// Token bucket: refill rate (per s), capacity, and the offered Poisson load (per s).
    public var rateLimitPerSecond = 10.0
    public var bucketCapacity = 10.0
    public var offeredPerSecond = 40.0
    /// Debounce: quiet interval (s); bursts of 2…10 signals 20…200 ms apart, 0.2…1 s of quiet
    /// after a burst's interval, so a step often lands while a deadline is pending.
    public var debounceSeconds = 0.5
    public var burstSpacingMin = 0.02
    public var burstSpacingMax = 0.2
    public var burstGapMin = 0.2
    public var burstGapMax = 1.0
    /// TTL cache: lifetime (s), one insert every `ttlInsertEvery` s, each entry looked up every
    /// `ttlLookupEvery` s until it is 2 × TTL old.
    public var ttlSeconds = 60.0
    public var ttlInsertEvery = 2.0
    public var ttlLookupEvery = 1.0
    /// Call display: one refresh per `callTickSeconds`, half a tick off the second boundaries.
    public var callTickSeconds = 1.0
    /// Adaptive gate: Poisson commits per second and the display link's rate (fps).
    public var commitsPerSecond = 20.0
    public var displayLinkFPS = 20.0
    /// Errors within ± this many seconds count as on time.
    public var toleranceSeconds = 0.001

    public init() {}

    public static let sim = ClientParameters()

    /// Live runs last seconds: every interval shrinks so each client still sees many operations.
    public static let live: ClientParameters = {
        var p = ClientParameters()
        p.jobCount = 60
        p.jobMinSeconds = 0.005
        p.jobMaxSeconds = 0.4
        p.timeoutSeconds = 1.0
        p.timeoutEverySeconds = 0.25
        p.rateLimitPerSecond = 50
        p.bucketCapacity = 5
        p.offeredPerSecond = 200
        p.debounceSeconds = 0.1
        p.burstSpacingMin = 0.005
        p.burstSpacingMax = 0.04
        p.burstGapMin = 0.05
        p.burstGapMax = 0.2
        p.ttlSeconds = 1.0
        p.ttlInsertEvery = 0.1
        p.ttlLookupEvery = 0.05
        p.callTickSeconds = 0.1
        p.toleranceSeconds = 0.005  // a 1 ms polling loop plus scheduling noise
        return p
    }()
}
