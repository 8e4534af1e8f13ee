import Records
import Simulation
import XCTest

@testable import Readiness

/// A launch's timeline (`--perfetto`, `--events`): recording it changes no result, and what it
/// draws is what the launch counted.
final class LaunchTimelineTests: XCTestCase {
    func run(_ context: ProcessContext, _ variant: ReadinessVariant, seed: UInt64, record: Bool) throws -> (LaunchRecorder, LaunchPlan) {
        let plan = LaunchPlan.generate(LaunchProfile(context: context).quick(), seed: seed)
        return (try SimMainExecutor.run(plan: plan, globals: .lazyOnce, variant: variant, recordTimeline: record), plan)
    }

    func value(_ observations: [Observation], _ name: String) -> Double? {
        observations.first { $0.metric == name }?.value
    }

    /// A block's slice name, taken from its table by the kind's ordinal, is the one spelled out
    /// (control: the no-op slot is another name).
    func testSliceNamesAreTheSpelledOnes() {
        for kind in BlockKind.allCases {
            XCTAssertEqual(LaunchRecorder.sliceNames[kind.ordinal * 2].string, LaunchRecorder.sliceName(kind))
            XCTAssertEqual(LaunchRecorder.sliceNames[kind.ordinal * 2 + 1].string, LaunchRecorder.sliceName(kind) + " (no-op)")
        }
        XCTAssertNotEqual(LaunchRecorder.sliceNames[1].string, LaunchRecorder.sliceName(.will))
    }

    func testRecordingChangesNothingAndCountsAreTheRuns() throws {
        for context in [ProcessContext.mainApp, .nse] {
            for variant in ReadinessVariant.builtIn where variant.hasSimForm {
                let label = "\(context) \(variant.name)"
                let (plain, plan) = try run(context, variant, seed: 3, record: false)
                let (traced, _) = try run(context, variant, seed: 3, record: true)
                let observations = plain.observations(plan: plan)
                XCTAssertEqual(observations, traced.observations(plan: plan), label)
                // Control: the comparison above can fail (another seed measures otherwise).
                let (other, otherPlan) = try run(context, variant, seed: 4, record: false)
                XCTAssertNotEqual(observations, other.observations(plan: otherPlan), label)

                let events = traced.timeline(plan: plan)
                let missed = events.filter { $0.name == "missed vsync" && $0.kind == .instant }.count
                XCTAssertEqual(Double(missed), value(observations, "missed_frames"), label)
                let appReady = try XCTUnwrap(events.first { $0.name == "app ready" }, label)
                XCTAssertEqual(Double(appReady.startNanoseconds) / 1e6, value(observations, "t_app_ready_ms")!, accuracy: 1e-9, label)
                let uiReady = try XCTUnwrap(events.first { $0.name == "UI ready" }, label)
                let politeBeforeUI = events.filter {
                    $0.kind == .slice && $0.name.hasPrefix("polite") && $0.startNanoseconds < uiReady.startNanoseconds
                }
                XCTAssertEqual(Double(politeBeforeUI.count), value(observations, "polite_before_ui"), label)
                let blocks = events.filter { $0.kind == .slice && $0.name != "frame" && $0.name != "input" }
                XCTAssertEqual(blocks.count, traced.allRuns.count, label)
                let pending = events.filter { $0.track == "pending blocks" }
                XCTAssertEqual(pending.last?.value, 0, "\(label): every registered block ran")
                if context == .mainApp {
                    XCTAssertEqual(events.filter { $0.name == "input" }.count, plan.inputs.count, label)
                }
            }
        }
    }

    /// A run that does not record keeps no sim-driver events (no frames, no queue depth).
    func testADefaultRunRecordsNothingOnTheWay() throws {
        let (plain, _) = try run(.mainApp, ReadinessVariant.builtIn[0], seed: 1, record: false)
        XCTAssertNil(plain.trace)
        let (traced, _) = try run(.mainApp, ReadinessVariant.builtIn[0], seed: 1, record: true)
        XCTAssertGreaterThan(traced.trace?.filter { $0.name == "frame" }.count ?? 0, 0)
        XCTAssertGreaterThan(traced.trace?.filter { $0.track == "main queue depth" }.count ?? 0, 0)
    }
}
