/// The shape of a commit stream: how commits arrive over time and how large each one is.
///
/// Every model is open-loop: arrival times never depend on how fast the system under test
/// handles them, so a slow policy cannot hide its latency by slowing the producer down.
public enum ArrivalModel: Hashable, Sendable {
    /// Poisson arrivals at `rate` commits per second.
    case poisson(rate: Double, rows: RowDistribution)
    /// Poisson arrivals at `rate` during `on` seconds, then silence for `off` seconds, repeating.
    case onOff(rate: Double, on: Double, off: Double, rows: RowDistribution)
    /// A two-state Markov-modulated Poisson process: a calm state and a burst state, each with
    /// its own rate and an exponentially distributed dwell time (mean seconds).
    case markovModulated(calmRate: Double, burstRate: Double, meanCalm: Double, meanBurst: Double, rows: RowDistribution)
    /// Bursts start as a Poisson process at `burstRate` per second; each burst holds a
    /// Pareto-distributed number of commits (shape `alpha`, at least `minCommits`) spaced `gap`
    /// seconds apart: most bursts are small, a few are enormous.
    case paretoBursts(burstRate: Double, alpha: Double, minCommits: Double, gap: Double, rows: RowDistribution)
    /// An initial-sync storm: a commit of `rows` every `minGap…maxGap` seconds (uniform) for
    /// `stormDuration` seconds, then Poisson at `afterRate` per second.
    case syncStorm(rows: RowDistribution, minGap: Double, maxGap: Double, stormDuration: Double, afterRate: Double)

    public var name: String {
        switch self {
        case .poisson: "poisson"
        case .onOff: "on-off"
        case .markovModulated: "mmpp"
        case .paretoBursts: "pareto-bursts"
        case .syncStorm: "sync-storm"
        }
    }

    /// Rates and durations as name/value pairs, for run metadata.
    public var parameters: [(String, Double)] {
        switch self {
        case let .poisson(rate, rows):
            [("rate_per_s", rate), ("mean_rows", rows.mean)]
        case let .onOff(rate, on, off, rows):
            [("rate_per_s", rate), ("on_s", on), ("off_s", off), ("mean_rows", rows.mean)]
        case let .markovModulated(calm, burst, meanCalm, meanBurst, rows):
            [
                ("calm_rate_per_s", calm), ("burst_rate_per_s", burst), ("mean_calm_s", meanCalm),
                ("mean_burst_s", meanBurst), ("mean_rows", rows.mean),
            ]
        case let .paretoBursts(burstRate, alpha, minCommits, gap, rows):
            [
                ("burst_rate_per_s", burstRate), ("alpha", alpha), ("min_commits", minCommits),
                ("gap_s", gap), ("mean_rows", rows.mean),
            ]
        case let .syncStorm(rows, minGap, maxGap, storm, after):
            [
                ("min_gap_s", minGap), ("max_gap_s", maxGap), ("storm_s", storm),
                ("after_rate_per_s", after), ("mean_rows", rows.mean),
            ]
        }
    }
}
