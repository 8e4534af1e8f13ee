import Simulation

/// One workload shape for the login flow: the services' latency and failures, batched or per-movie
/// movie fetches, and how often a flow starts.
public struct FanOutScenario: Sendable, Hashable {
    public var name: String
    public var summary: String
    public var services: ServiceProfile
    /// The article's batched call (one request for every referenced movie) or one call per movie.
    public var batchedMovies: Bool
    /// Flows start open-loop, exponential gaps of this mean (a user tapping "log in" / refreshing).
    public var meanGap: SimDuration = .milliseconds(1500)

    public static let login = FanOutScenario(
        name: "login",
        summary: "the article's flow: profile, tickets, favourites at once, then one batched movie call",
        services: ServiceProfile(),
        batchedMovies: true
    )
    public static let loginPerMovie = FanOutScenario(
        name: "login-per-movie",
        summary: "the same flow, one call per referenced movie (2-10 movies)",
        services: ServiceProfile(),
        batchedMovies: false
    )
    public static let flaky: FanOutScenario = {
        var s = ServiceProfile()
        s.failureProbability = 0.05
        return FanOutScenario(
            name: "flaky",
            summary: "batched; 5% of calls fail (what cancellation saves)",
            services: s,
            batchedMovies: true
        )
    }()
    public static let heavyTail: FanOutScenario = {
        var s = ServiceProfile()
        s.sigma = 0.9
        s.stallProbability = 0.05
        s.stallFactor = 10
        return FanOutScenario(
            name: "heavy-tail",
            summary: "batched; σ 0.9 and 5% of calls stall ×10 (timeouts at 3 s): the tail hedging targets",
            services: s,
            batchedMovies: true
        )
    }()

    public static let catalogue: [FanOutScenario] = [login, loginPerMovie, flaky, heavyTail]

    public init(name: String, summary: String, services: ServiceProfile, batchedMovies: Bool) {
        self.name = name
        self.summary = summary
        self.services = services
        self.batchedMovies = batchedMovies
    }

    /// Every duration scaled by `factor` (live runs the flow 10× faster than the model's default, so
    /// that a matrix of real sleeps stays short; the simulation it is compared with is scaled alike).
    func scaled(by factor: Double) -> FanOutScenario {
        func s(_ d: SimDuration) -> SimDuration { SimDuration(nanoseconds: Int64(Double(d.nanoseconds) * factor)) }
        var copy = self
        copy.services.profileMedian = s(services.profileMedian)
        copy.services.ticketsMedian = s(services.ticketsMedian)
        copy.services.favouritesMedian = s(services.favouritesMedian)
        copy.services.movieMedian = s(services.movieMedian)
        copy.services.movieBatchBase = s(services.movieBatchBase)
        copy.services.movieBatchPerMovie = s(services.movieBatchPerMovie)
        copy.services.timeout = s(services.timeout)
        copy.meanGap = s(meanGap)
        return copy
    }
}

/// The CPU costs the model charges, on main and on workers (virtual time).
public struct FlowCosts: Sendable, Hashable {
    /// Handling the tap on main before the calls go out.
    public var tap: SimDuration = .microseconds(200)
    /// A completion handler, `notify` block or task continuation decoding one response, on a worker.
    public var callback: SimDuration = .microseconds(100)
    /// Applying the result to the UI on main.
    public var uiUpdate: SimDuration = .milliseconds(2)
    /// A frame's own work on main (layout, commit) at each vsync.
    public var frameWork: SimDuration = .milliseconds(4)
    /// 60 Hz, as bench-throttle's display.
    public var frameInterval: SimDuration = .nanoseconds(16_666_667)
    public init() {}
}
