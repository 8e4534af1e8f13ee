import Simulation

@testable import Throttling

/// Builders for small hand-made scenarios whose every number can be worked out by hand.
enum Fixture {
    static func ms(_ v: Double) -> SimInstant { SimInstant.zero + .milliseconds(v) }

    /// A device whose costs are round numbers: frame 5 ms, free notifications and ticks, and an
    /// update of `fixedMs` + `perRowMs`·rows.
    static func device(frameMs: Double = 5, fixedMs: Double = 1, perRowMs: Double = 0, resetMs: Double = 30) -> DeviceProfile {
        DeviceProfile(
            name: "test",
            frameCost: .milliseconds(frameMs),
            notificationCost: .zero,
            tickCost: .zero,
            updateFixed: .milliseconds(fixedMs),
            updatePerRowNs: perRowMs * 1e6,
            updatePerRowSquaredNs: 0,
            resetCost: .milliseconds(resetMs)
        )
    }

    static func scenario(device: DeviceProfile = device(), duration: Double = 2, hz: Int = 60) -> ThrottleScenario {
        ThrottleScenario(
            name: "test",
            summary: "",
            arrivals: .poisson(rate: 1, rows: .fixed(1)),
            duration: .seconds(duration),
            device: device,
            vsyncHz: hz
        )
    }

    static func commits(_ pairs: [(Double, Int32)]) -> CommitTrace {
        .recorded(pairs.map { Commit(time: ms($0.0), rows: $0.1) })
    }

    /// Simulates `policy`; the observer pipeline by default, so an update's time is its publish's.
    static func run<P: UpdateThrottler>(
        _ policy: P,
        _ trace: CommitTrace,
        scenario: ThrottleScenario = scenario(),
        pipeline: ThrottlePipeline = .observer
    ) -> ThrottleRunResult {
        ThrottleExperiment.simulate(policy, scenario: scenario, trace: trace, pipeline: pipeline, recordTimeline: true)
    }

    static func seconds(_ v: Double) -> SimInstant { SimInstant.zero + .seconds(v) }

    static func context(
        now: Double,
        pendingRows: Int = 1,
        pendingCommits: Int = 1,
        oldest: Double? = nil,
        pendingResets: Int = 0
    ) -> ThrottleContext {
        ThrottleContext(
            now: ms(now),
            pendingRows: pendingRows,
            pendingCommits: pendingCommits,
            oldestPending: pendingCommits > 0 ? ms(oldest ?? now) : nil,
            oldestPendingRows: pendingCommits > 0 ? 1 : 0,
            vsyncInterval: .nanoseconds(16_666_666),
            nextVsync: ms(16.666666),
            frameQueued: false,
            resetThreshold: 200,
            pendingResets: pendingResets
        )
    }
}

extension ThrottleRunResult {
    func value(_ metric: String) -> Double? { observations.first { $0.metric == metric }?.value }
    var updateTimesMs: [Double] { timeline.map { $0.time.seconds * 1000 } }
}
