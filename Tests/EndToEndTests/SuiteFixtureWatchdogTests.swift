import Foundation
import Measurement
import Testing

/// A user's live variant that never returns (suite-fixture's `hangs-on-first`) is killed by the
/// item watchdog; the rest of the matrix is written.
///
/// Swift Testing, not XCTest (`swift test` within 180 s): the run waits out its 3 s
/// `--item-timeout`, side by side with the other waiting tests (on a thread of its own,
/// `onThread`). A failed expectation fails `swift test` as an XCTest failure does.
@Suite struct SuiteFixtureWatchdogTests {
    @Test func aHangingLiveUserVariantIsKilledByTheWatchdog() async throws {
        let started = Date()
        let run = try await WaitedRun(
            "suite-fixture",
            [
                "throttle", "--mode", "live", "--quick", "--scenario", "steady", "--variant", "hangs-on-first,immediate",
                "--duration", "0.5", "--item-timeout", "3", "--quiet",
            ],
            document: "throttle.json"
        )
        let result = run.result
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.contains("hangs-on-first") && result.stderr.contains("hung"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "the watchdog, not the hang, ended the item")
        let d = try #require(run.document)
        #expect(d.records.contains { $0.variant == "immediate" && $0.mode == "live" })
        // That no child is left behind is checked by UserPackageFaultTests, by the run's own
        // process ID (a machine-wide pgrep also sees other checkouts running this test).
    }
}
