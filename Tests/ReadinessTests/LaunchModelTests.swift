import Records
import Simulation
import XCTest

@testable import Readiness

/// The launch model: determinism, the frame rule, the population, the globals and ours.
final class LaunchModelTests: XCTestCase {
    func observations(
        _ context: ProcessContext,
        _ variant: ReadinessVariant,
        seed: UInt64,
        globals: GlobalsStrategy = .eager
    ) throws -> [Observation] {
        let plan = LaunchPlan.generate(LaunchProfile(context: context), seed: seed)
        return try SimMainExecutor.run(plan: plan, globals: globals, variant: variant).observations(plan: plan)
    }

    func testSameSeedSameNumbersOtherSeedOtherNumbers() throws {
        for variant in ReadinessVariant.builtIn {
            XCTAssertEqual(try observations(.mainApp, variant, seed: 3), try observations(.mainApp, variant, seed: 3))
            XCTAssertNotEqual(try observations(.mainApp, variant, seed: 3), try observations(.mainApp, variant, seed: 4))
        }
    }

    func testPopulationIsSignals() {
        let plan = LaunchPlan.generate(LaunchProfile(context: .mainApp), seed: 1)
        let count = { (k: BlockKind) in plan.blocks.filter { $0.kind == k }.count }
        XCTAssertEqual([count(.will), count(.did), count(.ui), count(.polite)], [7, 15, 2, 40])
        XCTAssertEqual(plan.blocks.filter(\.mainAppOnly).count, 12)
        XCTAssertGreaterThan(plan.blocks.filter { if case .offMain = $0.registration { true } else { false } }.count, 0)
        XCTAssertGreaterThan(plan.blocks.filter { if case .main = $0.registration { true } else { false } }.count, 0)
        XCTAssertEqual(plan.blocks.map(\.id), Array(0..<64))
    }

    /// Heavy tail: the minimum is the floor, the cap the ceiling, and the mean well above the median.
    func testDurationDistributionIsHeavyTailed() {
        let d = DurationDistribution(minimum: .milliseconds(1))
        var g = SeededGenerator(seed: 9)
        let draws = (0..<20_000).map { _ in d.draw(&g).nanoseconds }.sorted()
        XCTAssertGreaterThanOrEqual(draws.first!, 1_000_000)
        XCTAssertLessThanOrEqual(draws.last!, 400_000_000)
        let mean = Double(draws.reduce(0, +)) / Double(draws.count)
        XCTAssertGreaterThan(mean, 2 * Double(draws[draws.count / 2]))
        // P(x > 20 · minimum) = 20^-1.3 ≈ 2.0 %.
        let tail = Double(draws.filter { $0 > 20_000_000 }.count) / Double(draws.count)
        XCTAssertEqual(tail, 0.02, accuracy: 0.005)
    }

    /// A vsync inside a turn is a missed frame once the screen exists; a long input turn shows it.
    func testAVsyncInsideATurnIsMissed() throws {
        let plan = LaunchFixtures.plan(.mainApp, [(.did, 1, .launch), (.polite, 100, .launch)])
        let r = try LaunchFixtures.run(plan, .signal)
        // The 100 ms polite block spans 5 or 6 vsyncs at 60 Hz.
        XCTAssertGreaterThanOrEqual(r.missedFrames, 5)
        XCTAssertLessThanOrEqual(r.missedFrames, 6)
        XCTAssertGreaterThan(r.renderedFrames, 0)
    }

    /// Input latency runs from the event's own time: an input arriving during a long turn waits for it.
    func testInputWaitsBehindTheRunningTurn() throws {
        let arrival = SimInstant(nanoseconds: 200_000_000)
        let plan = LaunchFixtures.plan(.mainApp, [(.did, 150, .launch)], inputs: [LaunchPlan.Input(time: arrival, service: 0)])
        let r = try LaunchFixtures.run(plan, .signal)
        let turnEnd = r.readyTurnEnd!
        XCTAssertGreaterThan(turnEnd, arrival)
        XCTAssertGreaterThanOrEqual(r.inputLatencies[0], turnEnd - arrival + .milliseconds(2))
    }

    /// Ours starts nothing deferred before the first screen, never reorders, and keeps more frames
    /// than Signal's chain on the default main-app launch (summed over seeds).
    func testFrameAwareKeepsFramesAndOrder() throws {
        var ours = 0.0, signal = 0.0
        for seed: UInt64 in 1...5 {
            let o = try observations(.mainApp, .frameAware, seed: seed)
            let s = try observations(.mainApp, .signal, seed: seed)
            func v(_ obs: [Observation], _ m: String) -> Double { obs.first { $0.metric == m }!.value }
            XCTAssertEqual(v(o, "overtakes"), 0)
            XCTAssertEqual(v(o, "polite_before_ui"), 0)
            ours += v(o, "missed_frames")
            signal += v(s, "missed_frames")
        }
        XCTAssertLessThan(ours, signal)
    }

    /// Lazy globals move construction out of the launch turn: app-ready comes sooner.
    func testLazyGlobalsMakeReadySooner() throws {
        func ready(_ g: GlobalsStrategy) throws -> Double {
            try observations(.mainApp, .signal, seed: 1, globals: g).first { $0.metric == "t_app_ready_ms" }!.value
        }
        XCTAssertLessThan(try ready(.lazyOnce), try ready(.eager))
    }
}
