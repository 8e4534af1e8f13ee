import Simulation
import XCTest

@testable import Readiness

/// The registry race on real threads: check-then-create duplicates, a once never does.
final class ConcurrentFirstUseTests: XCTestCase {
    func testLazyOnceNeverDuplicates() {
        for seed: UInt64 in 1...3 {
            let r = ConcurrentFirstUse.run(strategy: .lazyOnce, services: 100, threads: 8, seed: seed)
            XCTAssertEqual(r.duplicates, 0)
            XCTAssertEqual(r.constructions, 100)
        }
        XCTAssertEqual(ConcurrentFirstUse.run(strategy: .eager, services: 100, threads: 8, seed: 1).duplicates, 0)
    }

    /// The control: the article's registry must build duplicates (retried, since a race may in
    /// principle be missed; on any multi-threaded run it happens at once).
    func testLazyRegistryBuildsDuplicates() {
        var duplicates = 0
        for seed: UInt64 in 1...10 where duplicates == 0 {
            duplicates = ConcurrentFirstUse.run(strategy: .lazyRegistry, services: 100, threads: 8, seed: seed).duplicates
        }
        XCTAssertGreaterThan(duplicates, 0)
    }

    /// The live executor with the real clock: a short main-app launch drains and measures.
    func testLiveLaunchDrains() {
        var profile = LaunchProfile(context: .mainApp).quick()
        profile.inputEnd = SimInstant(nanoseconds: 600_000_000)
        let plan = LaunchPlan.generate(profile, seed: 1)
        let outcome = LiveLaunchRun.run(plan: plan, globals: .eager, variant: .signal, parameters: .init())
        XCTAssertTrue(outcome.drained)
        let obs = outcome.recorder.observations(plan: plan)
        XCTAssertEqual(outcome.recorder.allRuns.count, plan.blocks.count)
        XCTAssertGreaterThan(obs.first { $0.metric == "t_ui_ready_ms" }!.value, 0)
    }

    /// Live, a frame-aware launch starts its blocks too long for any frame (before, it never did
    /// and ran to its limit, 30 s an item). The deterministic control is in FrameAwareAfterFrameTests.
    func testLiveFrameAwareLaunchStartsItsLongBlocks() {
        var profile = LaunchProfile(context: .mainApp).quick()
        profile.inputEnd = SimInstant(nanoseconds: 600_000_000)
        let plan = LaunchPlan.generate(profile, seed: 1)
        let parameters = FrameAwareScheduler.Parameters()
        XCTAssertTrue(
            plan.blocks.contains { $0.kind == .polite && $0.estimate + parameters.margin > profile.frameInterval - profile.frameCost },
            "the plan must hold a deferred block too long for any frame"
        )
        let outcome = LiveLaunchRun.run(plan: plan, globals: .eager, variant: .frameAware, parameters: parameters, limit: .seconds(10))
        XCTAssertTrue(outcome.drained, "a never-fitting block did not start after a frame")
    }
}
