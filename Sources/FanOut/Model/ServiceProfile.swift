import Simulation

/// The services of the article's login flow and how long each answers, as one scenario sets them.
///
/// Latency is log-normal (a median and a shape σ), times a stall factor with a small probability:
/// that mixture is the heavy tail a real backend shows (a GC pause, a cold cache, a retransmit),
/// which a single log-normal underweights. A call fails with `failureProbability` (the server's
/// error arrives after the drawn latency) and times out at `timeout` (the client gives up then).
public struct ServiceProfile: Sendable, Hashable {
    /// Medians of the four endpoints; the batched movie call costs `movieBatchBase` plus
    /// `movieBatchPerMovie` per movie at its median (one round trip, a larger response).
    public var profileMedian: SimDuration = .milliseconds(80)
    public var ticketsMedian: SimDuration = .milliseconds(120)
    public var favouritesMedian: SimDuration = .milliseconds(100)
    public var movieMedian: SimDuration = .milliseconds(60)
    public var movieBatchBase: SimDuration = .milliseconds(70)
    public var movieBatchPerMovie: SimDuration = .milliseconds(5)
    /// Log-normal shape: the 95th percentile is median × e^(1.645σ) before stalls.
    public var sigma: Double = 0.5
    public var stallProbability: Double = 0.01
    public var stallFactor: Double = 8
    public var failureProbability: Double = 0.005
    public var timeout: SimDuration = .seconds(3)

    public init() {}

    /// The median of one call of `kind` (the batched call for `movies` referenced movies).
    func median(_ kind: ServiceKind, movies: Int) -> SimDuration {
        switch kind {
        case .profile: profileMedian
        case .tickets: ticketsMedian
        case .favourites: favouritesMedian
        case .movie: movieMedian
        case .movies: movieBatchBase + movieBatchPerMovie * Int64(movies)
        }
    }

    /// When a hedged call sends its copy: the service's 95th percentile without stalls
    /// (median × e^(1.645σ)), the usual "hedge after p95" rule.
    func hedgeDelay(_ kind: ServiceKind, movies: Int) -> SimDuration {
        let m = Double(median(kind, movies: movies).nanoseconds)
        return SimDuration(nanoseconds: Int64(m * DeterministicMath.exp(1.645 * sigma)))
    }

    /// One call's outcome, drawn from `rng`: how long until the client hears back, and whether it
    /// is a success.
    func draw(_ kind: ServiceKind, movies: Int, rng: inout SeededGenerator) -> CallOutcome {
        let z = NormalQuantile.of(rng.nextOpenUnit() * 0.999_999_999_999)
        var latency = Double(median(kind, movies: movies).nanoseconds) * DeterministicMath.exp(sigma * z)
        if rng.nextUnit() < stallProbability { latency *= stallFactor }
        let fails = rng.nextUnit() < failureProbability
        let ns = max(Int64(1_000), Int64(latency))
        if ns >= timeout.nanoseconds { return CallOutcome(duration: timeout, result: .timedOut) }
        return CallOutcome(duration: SimDuration(nanoseconds: ns), result: fails ? .failed : .succeeded)
    }
}

/// The endpoints of the login flow.
public enum ServiceKind: String, Sendable, Hashable, CaseIterable {
    case profile, tickets, favourites
    /// One movie by id (one call per movie).
    case movie
    /// Every referenced movie in one batched call.
    case movies

    /// Its place in `allCases`: a switch, so that a new case fails to compile here rather than
    /// share a slot of a table indexed by it.
    var ordinal: Int {
        switch self {
        case .profile: 0
        case .tickets: 1
        case .favourites: 2
        case .movie: 3
        case .movies: 4
        }
    }
}

/// What the client hears from one call, and when (relative to the call's start).
struct CallOutcome: Sendable, Hashable {
    enum Result: Sendable, Hashable { case succeeded, failed, timedOut }
    var duration: SimDuration
    var result: Result
    var ok: Bool { result == .succeeded }
}
