import Simulation
import XCTest

@testable import Throttling

/// Signal's own documented behaviour, replayed: DebouncedEvent's A…F timelines, the observer's
/// per-transaction resets, commit visibility and pausing, and CVLoadCoordinator's second stage.
/// Each test names the Signal file it pins (see docs/signal-fidelity.md).
final class SignalFidelityTests: XCTestCase {
    /// A slow-motion scenario for the timelines (N = 5 s): costs are zero apart from 5 ms frames.
    static let timelineScenario = Fixture.scenario(duration: 30)
    static let abcdef: [(Double, Int32)] = [(1000, 1), (2000, 1), (4000, 1), (8000, 1), (9000, 1), (20000, 1)]

    // MARK: DebouncedEvent.swift, lastOnly

    func testLastOnlyDebouncerReplaysSignalsTimeline() {
        // A@1 enqueues; B@2, C@4 ignored; fire@6; D@8 enqueues; E@9 ignored; fire@13; F@20; fire@25.
        var d = LastOnlyDebouncer(interval: .seconds(5))
        XCTAssertEqual(d.request(at: Fixture.seconds(1)), .enqueue(at: Fixture.seconds(6)))
        XCTAssertEqual(d.request(at: Fixture.seconds(2)), .ignored)
        XCTAssertEqual(d.request(at: Fixture.seconds(4)), .ignored)
        d.fire()
        XCTAssertEqual(d.request(at: Fixture.seconds(8)), .enqueue(at: Fixture.seconds(13)))
        XCTAssertEqual(d.request(at: Fixture.seconds(9)), .ignored)
        d.fire()
        XCTAssertEqual(d.request(at: Fixture.seconds(20)), .enqueue(at: Fixture.seconds(25)))
        // 1 ms (Signal's thetaInterval) is not above theta: a plain async.
        var theta = LastOnlyDebouncer(interval: .milliseconds(1))
        XCTAssertEqual(theta.request(at: Fixture.seconds(1)), .enqueueNow)
        XCTAssertEqual(theta.request(at: Fixture.seconds(1)), .ignored)
    }

    func testSignalLastOnlyPublishesSignalsTimeline() {
        let r = Fixture.run(SignalLastOnlyThrottler(interval: .seconds(5)), Fixture.commits(Self.abcdef), scenario: Self.timelineScenario)
        XCTAssertEqual(r.updateTimesMs, [6000, 13000, 25000])
        XCTAssertEqual(r.timeline.map(\.rows), [3, 2, 1], "A,B,C; D,E; F")
    }

    func testArticleDebounceOnTheSameTimelineRearms() {
        // The article's lastOnly restarts the countdown: A…E fire 5 s after E, F 5 s after F.
        let r = Fixture.run(DebounceLastThrottler(quietPeriod: .seconds(5)), Fixture.commits(Self.abcdef), scenario: Self.timelineScenario)
        XCTAssertEqual(r.updateTimesMs, [14000, 25000])
        XCTAssertEqual(r.timeline.map(\.rows), [5, 1])
    }

    func testSignalLastOnlyNeverStarvesUnderAStreamTheArticlesDoes() {
        // A commit every 50 ms for 1 s, N = 100 ms.
        let trace = Fixture.commits((0..<20).map { (Double($0) * 50 + 5, 1) })
        let signal = Fixture.run(SignalLastOnlyThrottler(interval: .milliseconds(100)), trace)
        let article = Fixture.run(DebounceLastThrottler(quietPeriod: .milliseconds(100)), trace)
        // The fire enqueued by the 5 ms commit runs at 105 ms. The commit at 105 ms is published by
        // it (committed before), but its own block runs after the fire and enqueues the next one.
        XCTAssertEqual(signal.updateTimesMs, [105, 206, 355, 456, 605, 706, 855, 956])
        let gaps = zip(signal.updateTimesMs.dropFirst(), signal.updateTimesMs).map { $0 - $1 }
        XCTAssertLessThanOrEqual(gaps.max()!, 150, "a publish at least every N + 50 ms")
        XCTAssertEqual(signal.metrics.delivered, 20)
        XCTAssertEqual(article.updateTimesMs, [1055], "starved until the stream stopped")
    }

    // MARK: DebouncedEvent.swift, firstLast

    func testFirstLastDebouncerReplaysSignalsTimeline() {
        // A@1 fires at once; B@2 enqueues for 6; C@4 ignored; fire@6; D@8 enqueues for 11;
        // E@9 ignored; fire@11; F@20 fires at once (20 − 11 ≥ 5).
        var d = FirstLastDebouncer(interval: .seconds(5))
        XCTAssertEqual(d.request(at: Fixture.seconds(1)), .enqueueNow)
        d.fire(at: Fixture.seconds(1))
        XCTAssertEqual(d.request(at: Fixture.seconds(2)), .enqueue(at: Fixture.seconds(6)))
        XCTAssertEqual(d.request(at: Fixture.seconds(4)), .ignored)
        d.fire(at: Fixture.seconds(6))
        XCTAssertEqual(d.request(at: Fixture.seconds(8)), .enqueue(at: Fixture.seconds(11)))
        XCTAssertEqual(d.request(at: Fixture.seconds(9)), .ignored)
        d.fire(at: Fixture.seconds(11))
        XCTAssertEqual(d.request(at: Fixture.seconds(20)), .enqueueNow)
    }

    func testThrottleFirstLastPublishesSignalsTimeline() {
        let r = Fixture.run(
            ThrottleFirstLastThrottler(interval: .seconds(5)),
            Fixture.commits(Self.abcdef),
            scenario: Self.timelineScenario
        )
        XCTAssertEqual(r.updateTimesMs, [1000, 6000, 11000, 20000])
        XCTAssertEqual(r.timeline.map(\.rows), [1, 2, 2, 1], "A; B,C; D,E; F")
    }

    func testFirstLastImmediateFireRunsAfterWorkAlreadyQueued() {
        // The V1 frame runs 16.67–21.67 ms. Commits at 17 and 18 ms queue their blocks behind it.
        // The first block's fire is a queue.async: it runs after the second block, so one publish
        // takes both. A synchronous fire would publish 1 row, then hold the second for 100 ms.
        let r = Fixture.run(ThrottleFirstLastThrottler(interval: .milliseconds(100)), Fixture.commits([(17, 1), (18, 1)]))
        XCTAssertEqual(r.timeline.map(\.rows), [2])
        XCTAssertEqual(r.timeline.map(\.time.nanoseconds), [21_666_666])
    }

    // MARK: DatabaseChangeObserver.swift

    func testResetsArePerTransactionNotPerBatch() {
        // 20 commits of 15 rows inside one 100 ms window: one publish of 300 rows, never a reset.
        let small = Fixture.commits((0..<20).map { (10 + Double($0), 15) })
        let merged = Fixture.run(FixedRateThrottler(interval: .milliseconds(100)), small)
        XCTAssertEqual(merged.timeline.map(\.rows), [300])
        XCTAssertEqual(merged.metrics.resets, 0)
        // One transaction of 250 rows among small ones: the whole batch is one reset.
        let big = Fixture.commits([(10, 3), (11, 250), (12, 4)])
        let reset = Fixture.run(FixedRateThrottler(interval: .milliseconds(100)), big)
        XCTAssertEqual(reset.metrics.resets, 1)
        XCTAssertEqual(reset.timeline.map(\.rows), [257])
        XCTAssertEqual(reset.timeline.map(\.reset), [true])
    }

    func testAResetIsBuiltOffTheMainThreadAndLandsOnIt() {
        // Reset 30 ms built off main from 10 ms; landing costs a fifth of it (6 ms) on main.
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(10, 250)]))
        XCTAssertEqual(r.metrics.loads, 1)
        XCTAssertEqual(r.metrics.offMainCPU, .milliseconds(30))
        XCTAssertEqual(r.metrics.updateCPU, .milliseconds(6))
        XCTAssertEqual(r.timeline.first?.time, Fixture.ms(40), "lands when the build is done")
        XCTAssertEqual(r.metrics.missedVsyncs, 0, "30 ms of reset never blocks a frame")
    }

    func testAPublishTakesCommitsWhoseBlocksHaveNotRun() {
        // Both commits are committed while the V1 frame runs; the first block publishes both, the
        // second finds nothing and returns.
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(17, 1), (18, 1)]))
        XCTAssertEqual(r.metrics.publishes, 1)
        XCTAssertEqual(r.timeline.map(\.rows), [2])
    }

    func testCommitsDuringAPublishKeepTheLinkRunningInTheSimulation() {
        // signal-adaptive on a device whose update takes 40 ms: commits keep landing during each
        // publish, so after it something committed is left and the link keeps its samples.
        let device = Fixture.device(frameMs: 5, fixedMs: 40, resetMs: 100)
        let trace = Fixture.commits((0..<40).map { (Double($0) * 10 + 1, 1) })
        var sim = MainThreadSimulator(
            policy: SignalAdaptiveThrottler(),
            scenario: Fixture.scenario(device: device),
            trace: trace,
            pipeline: .observer
        )
        _ = sim.run()
        XCTAssertGreaterThan(sim.policy.samplesAtDecision.largest ?? 0, 1)
    }

    // MARK: CVLoadCoordinator.swift

    func testConversationStageMergesPublishesAndKeepsOneLoadInFlight() {
        // Build of 1 row costs 40 ms off main. Commits at 10, 20, 30 ms each publish at once: the
        // first starts a load (10–50 ms); the next two merge into the pending request, which
        // starts the moment the first load has landed.
        let device = Fixture.device(frameMs: 5, fixedMs: 40, resetMs: 100)
        let r = Fixture.run(
            ImmediateThrottler(),
            Fixture.commits([(10, 1), (20, 1), (30, 1)]),
            scenario: Fixture.scenario(device: device),
            pipeline: .conversation
        )
        XCTAssertEqual(r.metrics.publishes, 3)
        XCTAssertEqual(r.metrics.loads, 2)
        XCTAssertEqual(r.metrics.updates, 2)
        XCTAssertEqual(r.timeline.map(\.rows), [1, 2])
        XCTAssertEqual(r.metrics.offMainCPU, .milliseconds(40 + 40))
        XCTAssertEqual(r.timeline.first?.time, Fixture.ms(50))
        XCTAssertEqual(r.metrics.delivered, 3)
        // The observer pipeline applies the updates on main: 10–50 ms, then the two commits that
        // were committed meanwhile in one update (50–90 ms): 80 ms of main thread, missed vsyncs.
        let observer = Fixture.run(
            ImmediateThrottler(),
            Fixture.commits([(10, 1), (20, 1), (30, 1)]),
            scenario: Fixture.scenario(device: device),
            pipeline: .observer
        )
        XCTAssertEqual(observer.metrics.updateCPU, .milliseconds(80))
        XCTAssertGreaterThan(observer.metrics.missedVsyncs, r.metrics.missedVsyncs)
    }
}
