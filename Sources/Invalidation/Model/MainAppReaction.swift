import Simulation

/// How the main app reacts to a cross-process notification — the one state machine that both the
/// simulation and the live main process step, so the two modes cannot drift apart.
///
/// Signal (SDSDatabaseStorage, ModelReadCache, DebouncedEvent): every delivery it acts on empties
/// the model caches at once (no debounce); while active the UI refresh goes through a firstLast
/// debounce, while inactive one pending flag yields a single refresh on the next activation.
/// Legacy: the handler first reads the shared state and ignores a notification carrying its own
/// pid. The machine never reads a clock and returns its decisions as data.
struct MainAppReaction {
    enum Refresh: Equatable {
        case none
        /// Refresh the UI now (the debounce fired at once).
        case now
        /// A debounce fire is now enqueued at this instant: call `debounceFired(at:)` then.
        case at(SimInstant)
    }

    struct Outcome {
        /// False when the legacy handler saw its own pid and did nothing.
        var acted: Bool
        /// The cache was emptied; these were its entries (ordered by key).
        var evacuated: [(key: Int, version: Int64)]?
        var refresh: Refresh
    }

    let variant: InvalidationVariant
    /// The main app's model cache (reads and own writes go straight to it).
    var cache: ReaderCache
    var debouncer: FirstLastDebouncer
    private(set) var active = true
    private(set) var pendingRefresh = false
    /// The contract tests' breaker; `.none` in every run of the suite.
    var fault = InvalidationFault.none

    init(variant: InvalidationVariant, cacheCapacity: Int, debounceInterval: SimDuration) {
        self.variant = variant
        cache = ReaderCache(capacity: cacheCapacity)
        debouncer = FirstLastDebouncer(interval: debounceInterval)
    }

    /// A handler run at `now`; `stateIsOwnPid` is what the legacy handler reads from the shared state.
    mutating func delivery(at now: SimInstant, stateIsOwnPid: Bool) -> Outcome {
        if variant.sharedChannel, stateIsOwnPid { return Outcome(acted: false, evacuated: nil, refresh: .none) }
        let evacuated = variant.evacuatesOnDelivery ? cache.evacuate() : nil
        if fault == .emptiesCacheSilently, evacuated == nil { _ = cache.evacuate() }
        guard active else {
            pendingRefresh = true
            return Outcome(acted: true, evacuated: evacuated, refresh: .none)
        }
        let refresh: Refresh
        switch debouncer.request(at: now) {
        case .fireNow:
            debouncer.fired(at: now)
            refresh = .now
        case .scheduled(let at): refresh = .at(at)
        case .ignored: refresh = .none
        }
        return Outcome(acted: true, evacuated: evacuated, refresh: refresh)
    }

    mutating func debounceFired(at now: SimInstant) { debouncer.fired(at: now) }

    /// The app became active or inactive; true when the pending refresh is due now.
    mutating func setActive(_ nowActive: Bool) -> Bool {
        active = nowActive
        guard nowActive, pendingRefresh else { return false }
        pendingRefresh = false
        return true
    }
}

/// A fault a contract test injects into the main app's reaction (the role is closed, so the
/// breaker cannot be a variant of its own): what `InvalidationContract` must catch.
package enum InvalidationFault: Sendable {
    case none
    /// Also empties the cache on every delivery it acts on, without reporting an evacuation (a
    /// change log that clears caches too, unseen by `evacuations_per_s` and `extra_store_reads`).
    case emptiesCacheSilently
}
