import ContractBreakers
import Foundation
import Measurement
import Simulation
import XCTest

@testable import Readiness

/// `ReadinessContract` live: a launch on real threads and the re-entry probes fail on the rule a
/// coordinator breaks, naming the block or task; the same coordinator without its fault passes.
final class ReadinessLiveContractTests: XCTestCase {
    /// Two blocks at launch and a did block registered off main after ready, on a real main thread.
    private let plan = LaunchFixtures.plan(
        .nse,
        [(.did, 2, .launch), (.polite, 3, .launch), (.did, 4, .offMain(SimInstant(nanoseconds: 200_000_000)))]
    )

    private func live(_ fault: CoordinatorFault, limit: SimDuration = .seconds(10)) -> LiveLaunchRun.Outcome {
        let variant = ReadinessVariant(name: "faulty", origin: .user, summary: "x", sim: { ContractCoordinator(session: $0, fault: fault) })
        return LiveLaunchRun.run(plan: plan, globals: .eager, variant: variant, parameters: .init(), limit: limit)
    }

    /// A coordinator that keeps its early blocks as deferred work it never starts runs into the
    /// time limit; the blocks it never started fail the launch, not a note.
    func testALiveLaunchCutOffWithBlocksNeverStartedFails() throws {
        let held = live(.holdsEarlyBlocks, limit: .seconds(1))
        XCTAssertFalse(held.drained)
        let v = try XCTUnwrap(held.violation)
        XCTAssertEqual(v.rule, ReadinessContract.startsEveryBlockOnce)
        XCTAssertTrue(
            v.event.contains("(the live time limit of 1.0 s): block 0 (did, registered at launch) never started (2 of 3 blocks)"),
            v.event
        )
        let control = live(.none, limit: .seconds(1))
        XCTAssertTrue(control.drained, "control: the same launch drains well within the limit")
        XCTAssertNil(control.violation)
    }

    func testALiveLaunchThatDropsBlocksFails() throws {
        let dropped = live(.dropsEarlyBlocks)
        XCTAssertTrue(dropped.drained)
        let v = try XCTUnwrap(dropped.violation)
        XCTAssertEqual(v.rule, ReadinessContract.startsEveryBlockOnce)
        XCTAssertTrue(v.event.contains(": block 0 (did, registered at launch) never started (2 of 3 blocks)"), v.event)
        XCTAssertFalse(v.event.contains("time limit"), v.event)
    }

    func testALiveLaunchThatRunsABlockTwiceOrOffMainFails() throws {
        let twice = try XCTUnwrap(live(.runsEachTwice).violation)
        XCTAssertEqual(twice.rule, ReadinessContract.startsEveryBlockOnce)
        XCTAssertTrue(twice.event.hasPrefix("block 2 (did, registered off main at 0.2s) started again"), twice.event)
        let offMain = try XCTUnwrap(live(.runsOffMainRegistrationsInPlace).violation)
        XCTAssertEqual(offMain.rule, ReadinessContract.runsOnItsThread)
        XCTAssertTrue(offMain.event.hasPrefix("block 2 (did, registered off main at 0.2s) ran off the main executor"), offMain.event)
        XCTAssertNil(live(.none).violation, "control")
    }

    /// The live form in the re-entry probes: a task never run, or run off the thread that called
    /// `setAppIsReady`, breaks the contract (the control keeps it in both probes).
    func testAProbeThatLosesOrMovesATaskFails() throws {
        let lost = try XCTUnwrap(ReadinessProbe.reentry.run(on: ContractReadinessAPI(fault: .dropsReentrantTasks)))
        XCTAssertEqual(lost.rule, ReadinessContract.startsEveryBlockOnce)
        XCTAssertEqual(lost.event, "reentry probe: task 2 (registered by task 1 as it ran) never started before setAppIsReady returned")
        let moved = try XCTUnwrap(ReadinessProbe.crossThreadWait.run(on: ContractReadinessAPI(fault: .runsTasksOnAnotherThread)))
        XCTAssertEqual(moved.rule, ReadinessContract.runsOnItsThread)
        XCTAssertTrue(moved.event.hasPrefix("cross-thread-wait probe: task 1 "), moved.event)
        for probe in ReadinessProbe.allCases {
            XCTAssertNil(probe.run(on: ContractReadinessAPI(fault: .none)), "control: \(probe.rawValue)")
            XCTAssertNil(probe.run(on: FlagFirstReadiness()), "the built-in flag-first form: \(probe.rawValue)")
        }
    }

    /// A child's violation reaches the parent whole through its stderr line (control: a line
    /// that is not one, and a failure with no such line).
    func testAChildsViolationIsReadFromItsStderr() throws {
        let v = ReadinessContract.runsOnItsThread.violated(at: "reentry probe: task 1 ran off main")
        let line = ReadinessProbe.violationPrefix + String(decoding: try JSONEncoder().encode(v), as: UTF8.self)
        XCTAssertEqual(ReadinessProbe.violation(reportedOn: "noise\n\(line)\n"), v)
        XCTAssertNil(ReadinessProbe.violation(reportedOn: "Fatal error: index out of range\n"))
        XCTAssertNil(ReadinessProbe.violation(reportedOn: ReadinessProbe.violationPrefix + "{not json}\n"))
    }
}
