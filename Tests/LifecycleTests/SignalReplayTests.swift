import XCTest

@testable import Lifecycle

/// Replays what Signal's AppLifecycleManager.swift documents about its launch counter
/// ("AppLaunchesAttempted"): incremented in didFinishLaunching, cleared 3 s after the app is
/// ready (setAppIsReady) and in willTerminate; at 3 unfinished launches (`checkIfAllowedToLaunch`,
/// threshold `DebugFlags.betaLogging ? 2 : 3`) the next launch shows the launch-failure screen.
final class SignalReplayTests: XCTestCase {
    /// Four sessions each killed 1 s after launch (ready at ~0.5 s, cleared only at ~3.5 s).
    func testThreeUnfinishedLaunchesShowTheFailureScreen() throws {
        let trace = (0..<4).map { "\($0 * 10_000) launch\n\($0 * 10_000 + 1000) kill" }.joined(separator: "\n")
        let t = try runTrace(trace, builtIn("signal")).tally
        XCTAssertEqual(t.launchFailureScreens, 1, "the fourth launch, after three unfinished ones")
        XCTAssertEqual(try runTrace(trace, builtIn("article")).tally.launchFailureScreens, 0, "no counter")
    }

    /// The control: killed 5 s after launch, the counter was cleared 3 s after ready.
    func testACounterClearedAfterReadyShowsNoScreen() throws {
        let trace = (0..<6).map { "\($0 * 10_000) launch\n\($0 * 10_000 + 5000) kill" }.joined(separator: "\n")
        XCTAssertEqual(try runTrace(trace, builtIn("signal")).tally.launchFailureScreens, 0)
    }

    /// willTerminate clears the counter too.
    func testWillTerminateClearsTheCounter() throws {
        let trace = (0..<6).map { "\($0 * 10_000) launch\n\($0 * 10_000 + 1000) terminate" }.joined(separator: "\n")
        XCTAssertEqual(try runTrace(trace, builtIn("signal")).tally.launchFailureScreens, 0)
    }

    /// Nothing is saved at a transition (didEnterBackground only logs): zero saves, zero
    /// duplicates, and the background transition costs only the observers.
    func testNothingIsSavedAtTransitions() throws {
        let t = try runTrace(editsThenBackground(then: "60250 background\n70000 kill"), builtIn("signal")).tally
        XCTAssertEqual(t.saves, 0)
        XCTAssertEqual(t.duplicateSaves, 0)
        XCTAssertEqual(t.acknowledgedLost, 0)
        XCTAssertEqual(t.acknowledged, 5)
    }
}
