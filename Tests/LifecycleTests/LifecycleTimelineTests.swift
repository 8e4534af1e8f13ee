import Measurement
import Simulation
import XCTest

@testable import Lifecycle

/// The timeline is recorded only when asked, changes no result, and its counts are the metrics'.
final class LifecycleTimelineTests: XCTestCase {
    func testTraceCountsEqualTheMetrics() {
        for scenario in [LifecycleScenario.slowDevice, .memoryPressure] {
            let sessions = SessionGenerator.sessions(40, shape: scenario.shape, profile: AppProfile(), seed: 2)
            for v in LifecycleVariant.builtIn {
                let plain = LifecycleSimulation(policy: v.policy).run(sessions)
                let traced = LifecycleSimulation(policy: v.policy, record: true).run(sessions)
                XCTAssertTrue(plain.events.isEmpty)
                XCTAssertEqual(plain.tally, traced.tally, v.name)
                func count(_ name: String) -> Int { traced.events.filter { $0.kind == .instant && $0.name == name }.count }
                let t = traced.tally
                XCTAssertEqual(count("watchdog"), t.watchdogKills, "\(scenario) \(v.name)")
                XCTAssertEqual(count("jetsam"), t.jetsamKills, "\(scenario) \(v.name)")
                XCTAssertEqual(count("expiration"), t.expirationKills)
                XCTAssertEqual(count("bg-task expired"), t.backgroundTaskExpirations)
                XCTAssertEqual(count("refresh expired"), t.refreshExpirations)
                XCTAssertEqual(count("interactive"), t.coldTTI.count)
                XCTAssertEqual(traced.events.filter { $0.track == "storage" }.count, t.saves)
                XCTAssertEqual(traced.events.filter { $0.track == "refresh" }.count, t.refreshWindows)
                let peak = traced.events.filter { $0.kind == .counter }.compactMap(\.value).max() ?? 0
                XCTAssertGreaterThanOrEqual(peak, t.backgroundPeakMB)
            }
        }
    }
}
