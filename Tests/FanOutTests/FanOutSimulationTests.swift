import Measurement
import Simulation
import XCTest

@testable import FanOut

/// The fan-out model's guarantees, each beside a control that shows it can fail.
final class FanOutSimulationTests: XCTestCase {
    func run(_ v: FanOutVariant, _ s: FanOutScenario = .login, seed: UInt64 = 1, flows: Int = 60, trace: Bool = false) -> FanOutSimResult {
        FanOutSimulation.run(FanOutSimulation.Request(shape: v.shape, scenario: s, seed: seed, flows: flows, recordTrace: trace))
    }

    func testBitIdenticalPerSeedAndDifferentAcrossSeeds() {
        for v in FanOutVariant.builtIn {
            XCTAssertEqual(run(v, .flaky), run(v, .flaky), v.name)
        }
        XCTAssertNotEqual(run(.taskGroup, seed: 1).latencyP50Ns, run(.taskGroup, seed: 2).latencyP50Ns)
    }

    /// Every variant of an item sees the same draws: strategies that differ only in where they wait
    /// off main have the same latencies; blocking main changes them (the control).
    func testCommonRandomNumbers() {
        let notify = run(.groupNotify)
        let worker = run(.groupWaitWorker)
        XCTAssertEqual(notify.latencyP50Ns, worker.latencyP50Ns)
        XCTAssertEqual(notify.latencyMaxNs, worker.latencyMaxNs)
        XCTAssertEqual(notify.callsTotal, worker.callsTotal)
        XCTAssertNotEqual(notify.latencyMaxNs, run(.groupWaitMain).latencyMaxNs)
    }

    func testWaitOnMainMissesFramesAndNotifyDoesNot() {
        let main = run(.groupWaitMain)
        let notify = run(.groupNotify)
        XCTAssertEqual(notify.missedFrames, 0)
        XCTAssertEqual(notify.mainBlockedNs, 0)
        XCTAssertGreaterThan(main.missedFrames, 60 * 10)  // ≥ 10 frames per flow: each blocks main ≥ 200 ms
        XCTAssertGreaterThan(main.mainBlockedNs, 60 * 200_000_000)
        XCTAssertEqual(main.threadsBlockedPeak, 0)  // main is not a worker
    }

    func testBlockingVariantsHoldThreadsAndStructuredOnesDoNot() {
        XCTAssertGreaterThanOrEqual(run(.groupWaitWorker).threadsBlockedPeak, 1)
        XCTAssertGreaterThanOrEqual(run(.operationDependencies).threadsBlockedPeak, 3)  // a thread per call in flight
        XCTAssertEqual(run(.taskGroup).threadsBlockedPeak, 0)
        XCTAssertEqual(run(.asyncLet).blockedThreadNs, 0)
    }

    /// Cancellation saves the work DispatchGroup wastes after a failure; awaiting in order saves less.
    func testCancellationSavesWork() {
        let notify = run(.groupNotify, .flaky, flows: 200)
        let group = run(.taskGroup, .flaky, flows: 200)
        let inOrder = run(.asyncLet, .flaky, flows: 200)
        XCTAssertGreaterThan(notify.flowsFailed, 0)
        XCTAssertEqual(notify.flowsFailed, group.flowsFailed)
        XCTAssertEqual(notify.cancelledCalls, 0)
        XCTAssertGreaterThan(notify.wastedNs, 0)
        XCTAssertEqual(group.wastedNs, 0)
        XCTAssertGreaterThan(group.cancelledCalls, 0)
        XCTAssertLessThan(inOrder.wastedNs, notify.wastedNs)
        XCTAssertGreaterThan(inOrder.wastedNs, group.wastedNs)
        // Signal's when(fulfilled:) sees the failure as early as the task group but cancels nothing:
        // it wastes exactly what DispatchGroup wastes.
        let signal = run(.signalWhenFulfilled, .flaky, flows: 200)
        XCTAssertEqual(signal.wastedNs, notify.wastedNs)
        XCTAssertEqual(signal.cancelledCalls, 0)
        XCTAssertEqual(signal.flowsFailed, group.flowsFailed)
    }

    func testBatchedMoviesCallLessAndChainsAreSlower() {
        let batched = run(.groupNotify, .login)
        let perMovie = run(.groupNotify, .loginPerMovie)
        XCTAssertLessThan(Double(batched.callsTotal) / 60, 4.01)
        XCTAssertGreaterThan(Double(perMovie.callsTotal) / 60, 5)
        XCTAssertGreaterThan(run(.sequential, .loginPerMovie).latencyP50Ns, perMovie.latencyP50Ns)
        XCTAssertGreaterThan(run(.sequential, .login).latencyP50Ns, batched.latencyP50Ns)
    }

    func testHedgingCutsTheTailForExtraCalls() {
        let plain = run(.taskGroup, .heavyTail, flows: 200)
        let hedged = run(.hedged, .heavyTail, flows: 200)
        XCTAssertGreaterThan(hedged.callsTotal, plain.callsTotal)
        XCTAssertLessThan(hedged.latencyP99Ns, plain.latencyP99Ns)
    }

    /// The timeline's counts are the metrics': one slice per call copy, one instant per missed frame,
    /// the blocked-threads counter's peak, main's blocked slices.
    func testTraceCountsEqualTheMetrics() {
        for v in [FanOutVariant.groupWaitMain, .operationDependencies, .hedged] {
            let r = run(v, .flaky, flows: 30, trace: true)
            let calls = r.trace.filter { $0.kind == .slice && $0.track.hasPrefix("calls ") }
            XCTAssertEqual(calls.count, r.callsTotal, v.name)
            XCTAssertEqual(r.trace.filter { $0.name == "missed frame" }.count, r.missedFrames, v.name)
            let counter = r.trace.filter { $0.track == "threads blocked" }.compactMap(\.value).max() ?? 0
            XCTAssertEqual(Int(counter), r.threadsBlockedPeak, v.name)
            let blocked = r.trace.filter { $0.track == "main" && $0.name == "blocked in group.wait" }
            XCTAssertEqual(blocked.reduce(0) { $0 + $1.durationNanoseconds }, r.mainBlockedNs, v.name)
            XCTAssertEqual(calls.filter { $0.name.hasSuffix("cancelled") }.count, r.cancelledCalls, v.name)
        }
        XCTAssertTrue(run(.groupWaitMain, flows: 5).trace.isEmpty)  // recorded only when asked
        XCTAssertTrue(run(.groupWaitMain, flows: 5).frameRuns.isEmpty)
    }

    /// The idle main thread's frames are held as runs (a few per flow, not one event per frame),
    /// and the timeline has a `frame` slice for each frame that ran — a run's at its vsync — on
    /// main, one frame's work long, never overlapping another main slice.
    func testIdleFramesAreRunsOfTheSameSlices() {
        let r = run(.operationDependencies, .login, flows: 30, trace: true)
        let costs = FlowCosts()
        let main = r.timeline.filter { $0.track == "main" && $0.kind == .slice }.sorted { $0.startNanoseconds < $1.startNanoseconds }
        let frames = main.filter { $0.name == "frame" }
        XCTAssertGreaterThan(frames.count, 1_000)
        XCTAssertLessThanOrEqual(frames.count, r.frames)
        XCTAssertGreaterThanOrEqual(frames.count + r.missedFrames + 1, r.frames, "every vsync runs a frame or misses it")
        XCTAssertLessThan(r.frameRuns.count * 20, frames.count)
        XCTAssertEqual(r.frameRuns.reduce(0) { $0 + $1.count } + r.trace.filter { $0.name == "frame" }.count, frames.count)
        for f in frames { XCTAssertEqual(f.durationNanoseconds, costs.frameWork.nanoseconds) }
        for run in r.frameRuns {
            XCTAssertEqual(run.start % costs.frameInterval.nanoseconds, 0)
            XCTAssertEqual(run.period, costs.frameInterval.nanoseconds)
        }
        for (a, b) in zip(main, main.dropFirst()) {
            XCTAssertLessThanOrEqual(a.startNanoseconds + a.durationNanoseconds, b.startNanoseconds, "\(a) overlaps \(b)")
        }
    }

    func testNormalQuantile() {
        XCTAssertEqual(NormalQuantile.of(0.5), 0, accuracy: 1e-12)
        XCTAssertEqual(NormalQuantile.of(0.975), 1.959964, accuracy: 1e-5)
        XCTAssertEqual(NormalQuantile.of(0.001), -3.090232, accuracy: 1e-5)
    }

    func testRegistryRefusesDuplicatesAndListsOrigins() {
        var registry = VariantRegistry<FanOutVariant>(builtIn: FanOutVariant.builtIn)
        XCTAssertThrowsError(
            try registry.register(FanOutVariant(name: "task-group", origin: .user, summary: "x", shape: FanOutVariant.taskGroup.shape))
        )
        let mine = FanOutVariant(
            name: "hedged-notify",
            origin: .user,
            summary: "x",
            shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion, hedged: true)
        )
        XCTAssertNoThrow(try registry.register(mine))
        XCTAssertEqual(mine.primitive, .groupNotify)
        XCTAssertEqual(registry.origins["group-wait-main"], .article)
        XCTAssertEqual(registry.origins["hedged"], .ours)
        XCTAssertEqual(registry.origins["task-group"], .platform)
    }
}
