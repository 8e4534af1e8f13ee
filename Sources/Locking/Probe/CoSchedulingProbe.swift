import CLockShim
import Simulation
import Synchronization

/// Tells whether two threads of this process really run at the same time.
///
/// On a 2-vCPU virtual machine the hypervisor does not always run both vCPUs at once (and other
/// processes compete for them), so a "2-thread" measurement may in fact be one thread at a time,
/// which flatters unfair locks by 2–3×. The probe plays ping-pong through one atomic: thread A
/// flips it to 1 and spins until thread B flips it back. While both run, a round trip costs a
/// couple of cache-line transfers (~0.1–1 µs); while only one runs, it costs until the other is
/// scheduled (a time slice, ~ms). The result is the share of the probe's wall time spent in fast
/// round trips (< `fastThreshold`): 1 = fully concurrent, 0 = never concurrent. Round trips tile
/// the window (each starts where the last ended), so the shares add up to the whole.
package struct CoSchedulingProbe: Sendable {
    package var clock: any MonotonicClock
    package var pinning: Bool
    package var cpuCount: Int
    /// A round trip faster than this counts as "both threads were running".
    package static var fastThresholdNanoseconds: UInt64 { 20_000 }

    package init(clock: any MonotonicClock, pinning: Bool = false, cpuCount: Int = 2) {
        self.clock = clock
        self.pinning = pinning
        self.cpuCount = cpuCount
    }

    /// Runs the ping-pong for about `seconds`.
    package func run(seconds: Double) throws(ThreadTeam.StartError) -> CoSchedulingResult {
        let shared = ProbeState()
        let board = WorkerBoard(
            count: 2,
            initial: CoSchedulingResult(fraction: 0, roundTrips: 0, meanFastRoundTripNanoseconds: .nan, windowNanoseconds: 0)
        )
        let clock = self.clock
        let window = UInt64(seconds * 1e9)
        let threshold = Self.fastThresholdNanoseconds
        try ThreadTeam.run(count: 2, pinning: pinning, cpuCount: cpuCount) { index in
            if index == 1 {
                // The echo: hand every ping straight back until told to stop.
                while !shared.stop.load(ordering: .relaxed) {
                    if shared.turn.load(ordering: .acquiring) == 1 {
                        shared.turn.store(0, ordering: .releasing)
                    } else {
                        lks_cpu_relax()
                    }
                }
                return
            }
            // Wait until the echo thread is alive, so thread start-up is not counted.
            shared.turn.store(1, ordering: .releasing)
            while shared.turn.load(ordering: .acquiring) == 1 { lks_cpu_relax() }
            let start = clock.nanoseconds()
            var previous = start
            var fast: UInt64 = 0
            var fastCount: UInt64 = 0
            var trips: UInt64 = 0
            while previous &- start < window {
                shared.turn.store(1, ordering: .releasing)
                while shared.turn.load(ordering: .acquiring) == 1 { lks_cpu_relax() }
                let now = clock.nanoseconds()
                let trip = now &- previous
                if trip < threshold {
                    fast &+= trip
                    fastCount &+= 1
                }
                trips &+= 1
                previous = now
            }
            shared.stop.store(true, ordering: .relaxed)
            let total = previous &- start
            board.write(
                CoSchedulingResult(
                    fraction: total == 0 ? 0 : Double(fast) / Double(total),
                    roundTrips: trips,
                    meanFastRoundTripNanoseconds: fastCount == 0 ? .nan : Double(fast) / Double(fastCount),
                    windowNanoseconds: total
                ),
                at: 0
            )
        }
        return board.all[0]
    }
}

final class ProbeState: Sendable {
    let turn = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}

/// What one co-scheduling probe found.
package struct CoSchedulingResult: Sendable, Hashable {
    /// Share of the window spent in fast round trips, 0…1.
    package var fraction: Double
    package var roundTrips: UInt64
    /// Mean duration of the fast round trips, in nanoseconds (nan when there were none).
    package var meanFastRoundTripNanoseconds: Double
    package var windowNanoseconds: UInt64

    package init(fraction: Double, roundTrips: UInt64, meanFastRoundTripNanoseconds: Double, windowNanoseconds: UInt64) {
        self.fraction = fraction
        self.roundTrips = roundTrips
        self.meanFastRoundTripNanoseconds = meanFastRoundTripNanoseconds
        self.windowNanoseconds = windowNanoseconds
    }

    /// `concurrent` (≥ 0.9), `serialized` (< 0.1) or `mixed`.
    package var verdict: String {
        Self.verdict(for: fraction)
    }

    package static func verdict(for fraction: Double) -> String {
        if fraction >= 0.9 { return "concurrent" }
        if fraction < 0.1 { return "serialized" }
        return "mixed"
    }
}
