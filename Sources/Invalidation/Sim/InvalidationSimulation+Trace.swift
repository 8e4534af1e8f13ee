import Measurement
import Simulation
import Timelines

/// The simulation's timeline: a thread track per process (`main app`, `nse`, `share extension`)
/// and the main app's `main cache rows` counter.
///
/// The model gives no work a cost, so what a process does is a zero-length slice (Perfetto draws
/// it 1 ns wide): `write` (value: rows), `UI refresh`, `change log read`, `cache evacuated`
/// (value: rows dropped). A `debounce` slice runs from the delivery that armed the UI debounce to
/// its fire. Instants: `post` / `post (coalesced)` on the writer, `delivery` (value: posts it
/// carried) or `delivery ignored` (legacy, the shared state names the main app) on the main app,
/// `stale read` (value: versions behind) on the reader, `active` / `background`, `session start`.
extension InvalidationSimulation {
    static func track(_ role: ProcessRole) -> TraceName {
        switch role {
        case .main: "main app"
        case .nse: "nse"
        case .share: "share extension"
        }
    }

    mutating func recordDelivery(_ channel: ProcessRole, posts: Int, _ outcome: MainAppReaction.Outcome) {
        guard trace != nil else { return }
        let t = now.nanoseconds
        let main = Self.track(.main)
        guard outcome.acted else {
            trace!.append(.instant("delivery ignored", on: main, at: t, value: Double(posts)))
            return
        }
        trace!.append(.instant("delivery", on: main, at: t, value: Double(posts)))
        if let evacuated = outcome.evacuated {
            trace!.append(.slice("cache evacuated", on: main, start: t, duration: 0, value: Double(evacuated.count)))
        }
        if case .at(let fire) = outcome.refresh {
            trace!.append(.slice("debounce", on: main, start: t, duration: (fire - now).nanoseconds))
        }
    }

    /// The main cache's occupancy, when it changed since last recorded.
    mutating func recordOccupancy() {
        let count = app.cache.count
        guard count != tracedOccupancy else { return }
        tracedOccupancy = count
        trace?.append(.counter("main cache rows", unit: "rows", at: now.nanoseconds, value: Double(count)))
    }
}
