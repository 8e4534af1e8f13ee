import Simulation
import XCTest

@testable import Throttling

/// What each policy publishes when, on hand-made traces.
final class PolicyTests: XCTestCase {
    func testImmediatePublishesEveryCommit() {
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(10, 1), (20, 1), (30, 1)]))
        // The commit at 20 ms waits for the V1 frame (16.67–21.67 ms) before its notification runs.
        XCTAssertEqual(r.timeline.map { $0.time.nanoseconds }, [10_000_000, 21_666_666, 30_000_000])
        XCTAssertEqual(r.metrics.updates, 3)
    }

    func testFixedRateFiresOnItsGrid() {
        // Timer starts with the first change (10 ms) and repeats every 100 ms: 110, 210, ...
        let r = Fixture.run(FixedRateThrottler(interval: .milliseconds(100)), Fixture.commits([(10, 1), (20, 1), (150, 1)]))
        XCTAssertEqual(r.timeline.map(\.rows), [2, 1])
        XCTAssertEqual(r.updateTimesMs, [110, 210])
    }

    func testFixedRateSkipsMissedFirings() {
        var p = FixedRateThrottler(interval: .milliseconds(100))
        _ = p.commitArrived(Fixture.context(now: 0))  // first fire at 100
        let d = p.timerFired(Fixture.context(now: 350))  // very late: next is 400, not 200
        XCTAssertEqual(d.timer, .fire(at: Fixture.ms(400)))
        XCTAssertEqual(d.publish, .all)
    }

    func testSignalEstimatorAndLerpOnKnownTicks() {
        var e = DisplayLinkRateEstimator()
        XCTAssertNil(e.frequency)
        XCTAssertEqual(SignalAdaptiveThrottler.interval(forFrequency: nil), 0.05)
        e.record(Fixture.ms(0))
        XCTAssertNil(e.frequency, "fewer than 2 samples")
        e.record(Fixture.ms(50))
        // 2 samples 50 ms apart: Signal divides the count (2) by 0.05 s = 40 Hz (the true rate is 20).
        XCTAssertEqual(e.frequency!, 40, accuracy: 1e-9)
        e.clear()
        for t in [0.0, 100, 200] { e.record(Fixture.ms(t)) }
        XCTAssertEqual(e.frequency!, 15, accuracy: 1e-9)  // 3 / 0.2 s
        XCTAssertEqual(SignalAdaptiveThrottler.interval(forFrequency: 15), 0.525, accuracy: 1e-12)  // alpha 0.5
        XCTAssertEqual(SignalAdaptiveThrottler.interval(forFrequency: 10), 1.0)
        XCTAssertEqual(SignalAdaptiveThrottler.interval(forFrequency: 5), 1.0, "alpha clamps at 1")
        XCTAssertEqual(SignalAdaptiveThrottler.interval(forFrequency: 25), 0.05, "alpha clamps at 0")
    }

    func testSignalEstimatorDropsSamplesFiveSecondsOldWhenItEstimates() {
        var e = DisplayLinkRateEstimator()
        e.record(Fixture.ms(0))
        e.record(Fixture.ms(1000))
        e.record(Fixture.ms(3000))
        // Signal filters against *now* when it computes the interval: abs(sample − now) < 5 s.
        XCTAssertEqual(e.frequency(at: Fixture.ms(4000))!, 3 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(e.frequency(at: Fixture.ms(5000))!, 2 / 2.0, accuracy: 1e-12, "0 is exactly 5 s old: dropped")
        XCTAssertNil(e.frequency(at: Fixture.ms(6500)), "one sample left: the fast interval")
        XCTAssertEqual(e.count, 1)
        // first >= last (two samples at the same instant) also means the fast interval.
        var same = DisplayLinkRateEstimator()
        same.record(Fixture.ms(10))
        same.record(Fixture.ms(10))
        XCTAssertNil(same.frequency)
    }

    /// An exact tie on the simulator's monotonic nanoseconds passes: the last publish at 0, a tick
    /// at exactly 50 ms with one sample (the fast interval) publishes. Signal's `Date` seconds
    /// pass such a tie only where both instants round to at least 0.05 s apart (400 of 1000 at
    /// bench-clock's 2026 epoch, `AdaptiveGateTests.testAnExactTieIsDecidedAsTheTimeTypeSubtracts`);
    /// the simulator's jitter puts its ticks off whole milliseconds, so it never meets one. The
    /// control: 1 ns short of the tie does not publish.
    func testSignalAdaptiveExactTiePassesOnMonotonicTime() {
        var p = SignalAdaptiveThrottler()
        XCTAssertEqual(p.commitArrived(Fixture.context(now: 0)).publish, .all)
        XCTAssertEqual(p.commitArrived(Fixture.context(now: 10)).publish, .nothing)
        var short = p
        XCTAssertEqual(short.displayLinkTicked(Fixture.context(now: 50 - 1e-6)).publish, .nothing)
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 50)).publish, .all)
    }

    func testSignalAdaptivePublishRules() {
        var p = SignalAdaptiveThrottler()
        // First commit: the link starts (something is committed) and, with no earlier publish, it
        // publishes at once.
        let first = p.commitArrived(Fixture.context(now: 0))
        XCTAssertEqual(first.publish, .all)
        XCTAssertEqual(first.displayLink, .run)
        // After the publish nothing is committed: pause and forget the samples.
        XCTAssertEqual(p.publishFinished(Fixture.context(now: 1, pendingRows: 0, pendingCommits: 0)).displayLink, .pause)
        // A commit 10 ms later: target is 50 ms (no samples), so it waits and starts the link.
        let second = p.commitArrived(Fixture.context(now: 10))
        XCTAssertEqual(second.publish, .nothing)
        XCTAssertEqual(second.displayLink, .run)
        // Tick at 40 ms: still within 50 ms of the last publish's start.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 40)).publish, .nothing)
        XCTAssertEqual(p.estimator.count, 1)
        // Tick at 90 ms: two samples 50 ms apart → 40 Hz → 50 ms target; 90 ≥ 0 + 50: publish.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 90)).publish, .all)
        // A commit landed while the publish ran: the link keeps running and keeps its samples.
        XCTAssertEqual(p.publishFinished(Fixture.context(now: 95)).displayLink, .unchanged)
        XCTAssertEqual(p.estimator.count, 2, "samples survive while something committed is left")
        // The next publish leaves nothing: now the link pauses and the samples are cleared.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 140)).publish, .all)
        XCTAssertEqual(p.publishFinished(Fixture.context(now: 141, pendingRows: 0, pendingCommits: 0)).displayLink, .pause)
        XCTAssertEqual(p.estimator.count, 0)
        // Nothing committed: an attempt is not a publish.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 300, pendingRows: 0, pendingCommits: 0)).publish, .nothing)
        // A commit block that finds its commit already published pauses (Signal's ensureDisplayLink).
        XCTAssertEqual(p.commitArrived(Fixture.context(now: 301, pendingRows: 0, pendingCommits: 0)).displayLink, .pause)
    }

    func testSignalAdaptiveBacksOffWhenTicksAreDelayed() {
        var p = SignalAdaptiveThrottler()
        _ = p.commitArrived(Fixture.context(now: 0))  // publishes at 0
        _ = p.commitArrived(Fixture.context(now: 1))  // pending, link runs
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 20)).publish, .nothing)  // 1 sample: 50 ms
        // A blocked main thread delivers the next tick 150 ms later: 2 / 0.15 s = 13.3 Hz,
        // alpha = 2/3, target = 0.05 + 0.95 · 2/3 = 0.683 s.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 170)).publish, .nothing)
        XCTAssertEqual(p.targetInterval(at: Fixture.ms(170)), 0.05 + 0.95 * (20 - 2 / 0.15) / 10, accuracy: 1e-12)
        // 3 / 0.68 s = 4.4 Hz: alpha clamps to 1, target 1 s; 700 ms is not enough.
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 700)).publish, .nothing)
        XCTAssertEqual(p.targetInterval(at: Fixture.ms(700)), 1.0, accuracy: 1e-12)
        XCTAssertEqual(p.displayLinkTicked(Fixture.context(now: 1000)).publish, .all)
        // The decisions it made, and the samples held at each: 1 (at 20), 2 (170), 3 (700), 4 (1000).
        XCTAssertEqual(p.samplesAtDecision.total, 5)
        XCTAssertEqual(p.samplesAtDecision.largest, 4)
        XCTAssertEqual(p.backoffDecisions, 3)
        let obs = Dictionary(uniqueKeysWithValues: p.observations().map { ($0.metric, $0.value) })
        XCTAssertEqual(obs["estimator_samples_max"], 4)
        XCTAssertEqual(obs["estimator_backoff_share"]!, 3.0 / 5, accuracy: 1e-12)
    }

    func testSignalBriefMapsFrameRateToInterval() {
        XCTAssertEqual(SignalBriefThrottler.interval(forFPS: 60), .milliseconds(50))
        XCTAssertEqual(SignalBriefThrottler.interval(forFPS: 20), .milliseconds(500))
        XCTAssertEqual(SignalBriefThrottler.interval(forFPS: 40), .milliseconds(275))
        XCTAssertEqual(SignalBriefThrottler.interval(forFPS: 120), .milliseconds(50))
        XCTAssertEqual(SignalBriefThrottler.interval(forFPS: 5), .milliseconds(500))
    }

    func testSignalBriefArmsATrailingTimer() {
        let r = Fixture.run(SignalBriefThrottler(), Fixture.commits([(10, 1), (20, 1)]))
        // 10 ms publishes; 20 ms is inside the 50 ms interval, so a timer publishes it at 60 ms.
        XCTAssertEqual(r.updateTimesMs, [10, 60])
    }

    func testDebounceLastWaitsForQuiet() {
        // A commit every 50 ms for 1 s with a 100 ms quiet period: one publish, 100 ms after the last.
        let trace = Fixture.commits((0..<20).map { (Double($0) * 50 + 5, 1) })
        let r = Fixture.run(DebounceLastThrottler(quietPeriod: .milliseconds(100)), trace)
        XCTAssertEqual(r.updateTimesMs, [955 + 100])
        XCTAssertEqual(r.timeline.first?.rows, 20)
    }

    func testThrottleFirstLastFiresFirstAndTrailing() {
        let trace = Fixture.commits([(10, 1), (30, 1), (60, 1), (400, 1)])
        let r = Fixture.run(ThrottleFirstLastThrottler(interval: .milliseconds(100)), trace)
        // 10: at once; 30 and 60: one trailing fire at 110; 400: window closed at 210, so at once.
        XCTAssertEqual(r.updateTimesMs, [10, 110, 400])
        XCTAssertEqual(r.timeline.map(\.rows), [1, 2, 1])
    }

    func testFrameBudgetPublishesWhatFitsAndCoalescingNeverResets() {
        // 40 commits of 10 rows at once on a device where 10 rows cost 1 + 0.1·10 = 2 ms: the
        // budget fits several commits per frame. 400 rows in small commits are never a reset.
        let device = Fixture.device(frameMs: 5, fixedMs: 1, perRowMs: 0.1)
        let trace = Fixture.commits((0..<40).map { (10 + Double($0) * 0.01, 10) })
        let r = Fixture.run(FrameBudgetThrottler(maxAge: .milliseconds(100)), trace, scenario: Fixture.scenario(device: device))
        XCTAssertEqual(r.metrics.resets, 0)
        XCTAssertLessThan(r.metrics.maxUpdateRows, 200)
        XCTAssertEqual(r.metrics.missedVsyncs, 0)
        XCTAssertEqual(r.metrics.delivered, 40)
    }

    func testFrameBudgetBoundsAgeWhenNothingFits() {
        // Updates cost 20 ms fixed but a frame leaves only ~11 ms idle: nothing ever fits, so the
        // age bound (100 ms) is what publishes. Every commit is then on screen within
        // 100 ms + one update + two frames.
        let device = Fixture.device(frameMs: 5, fixedMs: 20, perRowMs: 0)
        let trace = Fixture.commits((0..<30).map { (Double($0) * 30 + 1, 1) })
        let r = Fixture.run(FrameBudgetThrottler(maxAge: .milliseconds(100)), trace, scenario: Fixture.scenario(device: device))
        XCTAssertEqual(r.metrics.delivered, 30)
        XCTAssertLessThan(r.metrics.updates, 30, "it batches")
        XCTAssertLessThanOrEqual(Double(r.metrics.latency.exactMax) / 1e6, 100 + 20 + 2 * 16.7 + 16.7)
    }

    func testUpdateCostEstimatorLearnsAQuadratic() {
        var e = UpdateCostEstimator()
        for n in [1, 5, 10, 20, 40, 80, 120, 160, 199, 3, 60] {
            let ms = 2 + 0.1 * Double(n) + 0.001 * Double(n * n)
            e.observe(rows: n, cost: .milliseconds(ms))
        }
        XCTAssertEqual(e.predict(rows: 100).milliseconds, 2 + 10 + 10, accuracy: 0.5)
        XCTAssertEqual(e.rowsFitting(.milliseconds(22), limit: 199), 100, accuracy: 3)
        XCTAssertEqual(e.rowsFitting(.milliseconds(1), limit: 199), 0)
    }
}
