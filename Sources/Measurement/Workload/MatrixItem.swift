import Records
import Timelines

/// An item of a scenario × seed × variant matrix (`MatrixSelection.items`), by the coordinates its
/// records, live-versus-simulated comparisons and traces are labelled with.
///
/// The item's type names its scenario and variant once; everything that labels an item — its
/// observation groups, its comparisons, its timelines — reads them from here instead of spelling
/// the same four arguments out at each place (and keeping the places in step).
public protocol MatrixItem: Sendable {
    /// The `scenario` column.
    var scenarioName: String { get }
    /// The `variant` column.
    var variantName: String { get }
    /// The seed of the item's random streams (the `seed` column).
    var seed: UInt64 { get }
    /// The seed's place in the run's list of seeds.
    var repetition: Int { get }
}

extension MatrixItem {
    /// One group of the item's observations, made in `mode`.
    public func labelled(_ mode: String, factors: [String: String] = [:], _ observations: [Observation]) -> LabelledObservations {
        LabelledObservations(
            scenario: scenarioName,
            variant: variantName,
            mode: mode,
            seed: seed,
            repetition: repetition,
            factors: factors,
            observations: observations
        )
    }

    /// The item's groups in the modes it ran in (`LabelledObservations.simAndLive`).
    public func labelled(sim: [Observation]?, live: [Observation]?) -> [LabelledObservations] {
        LabelledObservations.simAndLive(
            scenario: scenarioName,
            variant: variantName,
            seed: seed,
            repetition: repetition,
            sim: sim,
            live: live
        )
    }

    /// The item's live-versus-simulated comparisons of `metrics` (`Comparison.pairs`).
    public func comparisons(sim: [Observation], live: [Observation], metrics: [String]? = nil) -> [Comparison] {
        Comparison.pairs(scenario: scenarioName, variant: variantName, sim: sim, live: live, metrics: metrics)
    }

    /// The item's timeline in `mode`: its events and its runs of like slices (`SliceRun`).
    public func trace(_ mode: String, _ events: [TraceEvent], runs: [SliceRun] = []) -> ItemTrace {
        ItemTrace(scenario: scenarioName, variant: variantName, mode: mode, seed: seed, repetition: repetition, events: events, runs: runs)
    }
}
