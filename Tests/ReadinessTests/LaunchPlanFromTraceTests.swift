import Simulation
import TraceImport
import XCTest

@testable import Readiness

/// A recorded launch's intervals become the plan's blocks by the documented mapping.
final class LaunchPlanFromTraceTests: XCTestCase {
    func testIntervalsBecomeBlocks() {
        let ms: Int64 = 1_000_000
        let launch = IntervalEvents(
            process: "Signal",
            intervals: [
                IntervalEvent(name: "will.database", start: 0, duration: 12 * ms, mainThread: true),
                IntervalEvent(name: "contacts", start: 30 * ms, duration: 22 * ms, mainThread: false),
                IntervalEvent(name: "ui:inbox", start: 60 * ms, duration: 16 * ms, mainThread: true),
                IntervalEvent(name: "layout", start: 70 * ms, duration: 3 * ms, mainThread: true),
            ]
        )
        let plan = LaunchPlan.fromTrace(launch, profile: LaunchProfile(context: .mainApp), seed: 1)
        XCTAssertEqual(plan.blocks.map(\.kind), [.will, .ui, .did, .polite], "launch ones first, then off-main by time")
        XCTAssertEqual(plan.blocks.map(\.id), [0, 1, 2, 3])
        XCTAssertEqual(plan.blocks[3].registration, .offMain(SimInstant(nanoseconds: 30 * ms)))
        XCTAssertEqual(plan.blocks[0].registration, .launch)
        XCTAssertEqual(plan.blocks[0].duration, .milliseconds(12))
        XCTAssertEqual(plan.blocks[0].estimate, plan.blocks[0].duration)
        // The control: the generated plan of the same seed has other blocks.
        XCTAssertNotEqual(LaunchPlan.generate(LaunchProfile(context: .mainApp), seed: 1).blocks, plan.blocks)
    }
}
