import Simulation
import XCTest

@testable import Readiness

/// When the frame-aware scheduler may start a deferred block too long for any frame: right after a
/// frame, which live is noticed a little after the frame ended (the executor's wake-up). Driven on
/// a stub executor whose clock the test sets, so each case is exact.
final class FrameAwareAfterFrameTests: XCTestCase {
    /// A main executor that only records what the policy enqueues; the test sets its clock.
    private final class StubExecutor: MainExecutor, @unchecked Sendable {
        var now = SimInstant.zero
        var nextVsync: SimInstant?
        var lastInputArrival: SimInstant?
        var enqueued = 0
        func work(_ duration: SimDuration) { now = now + duration }
        func async(_ job: @escaping @Sendable () -> Void) { enqueued += 1 }
        func asyncAfter(_ delay: SimDuration, _ job: @escaping @Sendable () -> Void) { enqueued += 1 }
    }

    /// Whether the scheduler starts a never-fitting deferred block when the executor turns idle
    /// `late` after the frame for the vsync before `vsync` ended.
    private func starts(late: SimDuration, margin: SimDuration = FrameAwareScheduler.Parameters().margin) throws -> Bool {
        let profile = LaunchProfile(context: .mainApp).quick()
        let plan = LaunchPlan.generate(profile, seed: 1)
        var parameters = FrameAwareScheduler.Parameters()
        parameters.margin = margin
        let budget = profile.frameInterval - profile.frameCost
        var block = try XCTUnwrap(plan.blocks.first { $0.kind == .polite && !$0.mainAppOnly && $0.estimate > budget })
        block.estimate = parameters.inputBound  // under the bound: it needs only the bound's quiet
        let executor = StubExecutor()
        let session = LaunchSession(plan: plan, executor: executor, globals: .eager, frameAware: parameters)
        let policy = FrameAwareScheduler(session: session, parameters: parameters)
        policy.setUIReady()
        policy.register(block)
        let vsync = SimInstant(nanoseconds: 10 * profile.frameInterval.nanoseconds)
        executor.nextVsync = vsync
        executor.now = vsync - budget + late
        policy.onIdle()
        return executor.enqueued == 1
    }

    func testALongBlockStartsRightAfterAFrame() throws {
        XCTAssertTrue(try starts(late: .zero), "virtual time: the idle turn begins as the frame ends")
        XCTAssertTrue(try starts(late: .microseconds(50)), "live: noticed 50 µs after the frame ended")
    }

    /// Controls: with no slack, 50 µs late is not "after a frame" (live never started such a
    /// block); and well into the frame interval it must still wait for the next frame.
    func testItWaitsWhenNotJustAfterAFrame() throws {
        XCTAssertFalse(try starts(late: .microseconds(50), margin: .zero))
        XCTAssertFalse(try starts(late: .milliseconds(3)))
    }
}
