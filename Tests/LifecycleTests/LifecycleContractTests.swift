import Measurement
import XCTest

@testable import Lifecycle

/// A strategy whose share is not in [0, 1] or whose retries are negative breaks the lifecycle
/// contract at the first event that reads the value; the same strategy without the fault passes.
final class LifecycleContractTests: XCTestCase {
    let sessions = SessionGenerator.sessions(40, shape: LifecycleScenario.everyday.shape, profile: AppProfile(), seed: 3)

    func outcome(_ change: (inout LifecyclePolicy) -> Void) -> LifecycleSimulation.Outcome {
        var policy = builtIn("signal")
        change(&policy)
        return LifecycleSimulation(policy: policy).run(sessions)
    }

    func testSharesOutsideZeroToOneFailAtTheFirstBackgroundEntry() throws {
        for share in [Double.nan, -3, 1e308] {
            let v = try XCTUnwrap(outcome { $0.cachePurgedInBackground = share }.violation, "\(share)")
            XCTAssertEqual(v.rule, LifecycleContract.sharesInRange)
            XCTAssertTrue(v.event.hasPrefix("didEnterBackground at ") && v.event.contains(" ms: cachePurgedInBackground"), v.event)
            XCTAssertTrue(v.description.hasPrefix("broke the lifecycle contract: "), v.description)
        }
        // The controls: the edges of the range, and Signal's own 0.5, pass.
        for share in [0.0, 0.5, 1.0] { XCTAssertNil(outcome { $0.cachePurgedInBackground = share }.violation, "\(share)") }
    }

    func testNegativeRetriesFailAtTheFirstRefreshWindow() throws {
        let v = try XCTUnwrap(outcome { $0.refresh.retries = -1 }.violation)
        XCTAssertEqual(v.rule, LifecycleContract.retriesNotNegative)
        XCTAssertTrue(v.event.hasPrefix("refresh window at "), v.event)
        XCTAssertNil(outcome { $0.refresh.retries = 0 }.violation, "the control: no retries is allowed")
    }

    /// A NaN or infinite own timeout trapped the model (turning it into nanoseconds), ending the
    /// run; now it and one of zero or less fail the item at the first refresh window.
    func testAnOwnTimeoutThatIsNotAPositiveDurationFails() throws {
        for timeout in [Double.nan, .infinity, -.infinity, -1, 0, -1e300] {
            let v = try XCTUnwrap(outcome { $0.refresh.ownTimeoutSeconds = timeout }.violation, "\(timeout)")
            XCTAssertEqual(v.rule, LifecycleContract.ownTimeoutPositive)
            XCTAssertTrue(v.event.hasPrefix("refresh window at ") && v.event.contains("ownTimeoutSeconds"), v.event)
        }
        // The controls: Signal's 27 s, a tiny one, one far past the OS's budget, and none.
        for timeout in [27, 1e-9, 1e308, nil] as [Double?] {
            XCTAssertNil(outcome { $0.refresh.ownTimeoutSeconds = timeout }.violation, "\(String(describing: timeout))")
        }
    }

    /// A threshold of zero or less showed the launch-failure screen at every launch, silently.
    func testACrashLoopThresholdBelowOneFailsAtTheFirstLaunch() throws {
        for threshold in [0, -1, Int.min] {
            let v = try XCTUnwrap(outcome { $0.crashLoopThreshold = threshold }.violation, "\(threshold)")
            XCTAssertEqual(v.rule, LifecycleContract.crashLoopThresholdPositive)
            XCTAssertTrue(v.event.hasPrefix("launch at ") && v.event.contains("crashLoopThreshold \(threshold)"), v.event)
        }
        // The controls: Signal's 3, the smallest threshold, a huge one, and none.
        for threshold in [3, 1, Int.max, nil] as [Int?] {
            XCTAssertNil(outcome { $0.crashLoopThreshold = threshold }.violation, "\(String(describing: threshold))")
        }
    }

    func testEveryBuiltInStrategyKeepsTheContract() {
        for v in LifecycleVariant.builtIn { XCTAssertNil(LifecycleSimulation(policy: v.policy).run(sessions).violation, v.name) }
    }

    func testTheRulesAreInTheDocsTable() throws {
        XCTAssertEqual(try ContractTable.undocumented(LifecycleContract.rules, besideTest: #filePath), [])
    }
}
