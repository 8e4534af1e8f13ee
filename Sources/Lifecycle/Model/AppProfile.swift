import Simulation

/// The app's own costs and sizes: what the model's app does, as opposed to the OS's rules.
///
/// Nothing here is published anywhere for any real app: every value is an *assumption*, chosen to
/// be plausible for a messaging app on a recent iPhone, and listed as such in
/// docs/bench-lifecycle.md. The findings are about mechanisms (what a kill mid-save does, what a
/// synchronous save on main risks); their sizes move with these values.
package struct AppProfile: Sendable, Hashable {
    /// dyld, runtime and UIKit before the app's first line (Apple asks for a first frame within
    /// 400 ms, "Reducing your app's launch time").
    package var processStart = SimDuration.milliseconds(300)
    /// Initialisation items the first screen needs, and those it does not.
    package var criticalItems = 8
    package var deferrableItems = 24
    /// Each init item: bounded Pareto, minimum, shape and cap.
    package var initMin = SimDuration.milliseconds(10)
    package var initAlpha = 1.5
    package var initCap = SimDuration.milliseconds(400)
    /// Observers of didEnterBackground and of the resume (Signal's counts: ~21 and ~31), each
    /// bounded Pareto from `observerMin` up to `observerCap`.
    package var backgroundObservers = 21
    package var resumeObservers = 31
    package var observerMin = SimDuration.microseconds(200)
    package var observerCap = SimDuration.milliseconds(50)
    /// Writing the whole state (a full save): ~20 MB at ~250 MB/s.
    package var fullSave = SimDuration.milliseconds(80)
    /// Committing one change (a WAL append and commit).
    package var commit = SimDuration.milliseconds(3)
    /// Resident footprint without caches, cache growth while in the foreground, and its cap.
    package var baseMemoryMB = 120.0
    package var cacheGrowthMBPerSecond = 2.0
    package var cacheCapMB = 400.0
    /// Rebuilding purged caches on resume, per MB.
    package var rebuildPerMB = SimDuration.microseconds(1500)
    /// Sync: new work per refresh window (bounded Pareto from `syncMin`, shape, cap), the chance an
    /// attempt fails (network), and the back-off before a retry.
    package var syncMin = SimDuration.milliseconds(500)
    package var syncAlpha = 1.5
    package var syncCap = SimDuration.seconds(60)
    package var syncFailure = 0.15
    package var retryBackoff = SimDuration.seconds(2)

    package init() {}
}

/// One session's cost draws: bounded Pareto samples in units of the minimum, uniform fractions
/// and failure flags, drawn once so that every variant meets the same costs.
package struct CostDraws: Sendable, Hashable {
    /// Save-cost multipliers (1 = a full save's nominal cost; slow storage stalls some).
    package var saveFactor: [Double]
    /// Init items (critical first, then deferrable), in ns.
    package var initItems: [Int64]
    /// Observer costs, in ns.
    package var observers: [Int64]
    /// Per refresh window: new sync work (ns) and up to three attempts' (fails, fraction done).
    package var syncWork: [Int64]
    package var attemptFails: [Bool]
    package var attemptFraction: [Double]

    package func saveFactor(_ k: Int) -> Double { saveFactor[k % saveFactor.count] }
    package func observer(_ k: Int) -> Int64 { observers[k % observers.count] }
    package func syncWork(_ k: Int) -> Int64 { syncWork[k % syncWork.count] }
    package func attempt(_ k: Int) -> (fails: Bool, fraction: Double) {
        (attemptFails[k % attemptFails.count], attemptFraction[k % attemptFraction.count])
    }
}

extension SeededGenerator {
    /// A bounded Pareto sample in [minimum, cap] with shape `alpha`, by inversion.
    mutating func boundedPareto(minimum: Double, alpha: Double, cap: Double) -> Double {
        let u = nextUnit()
        let ratio = DeterministicMath.pow(minimum / cap, alpha)
        let x = minimum / DeterministicMath.pow(1 - u * (1 - ratio), 1 / alpha)
        return Swift.min(cap, Swift.max(minimum, x))
    }

    /// An exponential sample with the given mean.
    mutating func exponential(mean: Double) -> Double {
        -mean * DeterministicMath.log(nextOpenUnit())
    }
}
