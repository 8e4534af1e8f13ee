import Simulation
import XCTest

@testable import Readiness

/// Weak references to one launch's session and policy: nil once nothing holds them.
private final class LaunchWatch: @unchecked Sendable {
    // Written by the policy factory during `SimMainExecutor.run`, read after it; one thread.
    weak var session: LaunchSession?
    weak var policy: (any ReadinessPolicy)?
}

/// A simulated launch frees its session, executor and policy when it returns: the
/// three refer to one another, and a launch that stayed allocated to the end of the process made
/// bench-readiness' peak grow with `--seeds` (37 / 52 / 120 MB at 1 / 10 / 50).
final class LaunchLifetimeTests: XCTestCase {
    /// `variant` with its policy watched.
    private func watched(_ variant: ReadinessVariant, _ watch: LaunchWatch) -> ReadinessVariant {
        ReadinessVariant(name: variant.name, origin: .user, summary: "watched") { session in
            let policy = variant.policy(session: session)
            watch.session = session
            watch.policy = policy
            return policy
        }
    }

    func testEveryBuiltInLaunchIsFreedWhenItReturns() throws {
        for context in [ProcessContext.mainApp, .nse, .shareExtension] {
            let plan = LaunchPlan.generate(LaunchProfile(context: context), seed: 3)
            for variant in ReadinessVariant.builtIn where variant.hasSimForm {
                for globals in GlobalsStrategy.allCases {
                    let watch = LaunchWatch()
                    let recorder = try SimMainExecutor.run(plan: plan, globals: globals, variant: watched(variant, watch))
                    XCTAssertNotNil(recorder.appReady, "\(variant.name) \(context) ran")
                    XCTAssertNil(watch.session, "\(variant.name) \(context) \(globals): the session outlived its launch")
                    XCTAssertNil(watch.policy, "\(variant.name) \(context) \(globals): the policy outlived its launch")
                }
            }
        }
    }

    /// Control: a session and executor wired as `run` wires them, and not torn down, stay
    /// allocated — the cycle the test above would catch.
    func testAnExecutorAndSessionWiredTogetherKeepEachOtherAlive() {
        let watch = LaunchWatch()
        do {
            let plan = LaunchPlan.generate(LaunchProfile(context: .mainApp), seed: 3)
            let executor = SimMainExecutor(frameInterval: plan.profile.frameInterval)
            let session = LaunchSession(plan: plan, executor: executor, globals: .eager)
            executor.session = session
            watch.session = session
        }
        XCTAssertNotNil(watch.session)
        // Break the cycle by hand so the test itself leaks nothing.
        (watch.session?.executor as? SimMainExecutor)?.session = nil
        XCTAssertNil(watch.session)
    }
}
