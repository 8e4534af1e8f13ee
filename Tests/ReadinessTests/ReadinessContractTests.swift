import Foundation
import Measurement
import Simulation
import XCTest

@testable import Readiness

/// Runs every block at ready in its own turn; `fault` breaks one rule of `ReadinessContract`.
private final class FaultyCoordinator: ReadinessPolicy, @unchecked Sendable {
    enum Fault { case none, runsEachTwice, runsOffMainRegistrationsInPlace }
    private let session: LaunchSession  // confined to the main executor
    private let fault: Fault
    private var ready = false, waiting: [ReadinessBlock] = []
    init(session: LaunchSession, fault: Fault) {
        self.session = session
        self.fault = fault
    }
    func register(_ b: ReadinessBlock) {
        guard ready else { return waiting.append(b) }
        session.run(b, ownTurn: false)
        if fault == .runsEachTwice { session.run(b, ownTurn: false) }
    }
    func registerOffMain(_ b: ReadinessBlock) {
        // The fault: `session.run` on the registering (background) thread, no hop to main.
        if fault == .runsOffMainRegistrationsInPlace, ready { return session.run(b, ownTurn: false) }
        session.executor.async { [self] in register(b) }
    }
    func setAppReady() {
        ready = true
        session.markAppReady()
        for b in waiting { session.executor.async { [session] in session.run(b, ownTurn: true) } }
        waiting = []
    }
    func setUIReady() {}
}

/// Each rule of `ReadinessContract` fails a launch that breaks it, naming the block and when;
/// the same coordinator without the fault (the control) passes, on the same launch.
final class ReadinessContractTests: XCTestCase {
    /// A will and a polite block at launch, and a did block registered off main after ready.
    private let plan = LaunchFixtures.plan(
        .nse,
        [(.will, 2, .launch), (.polite, 3, .launch), (.did, 4, .offMain(SimInstant(nanoseconds: 2_000_000_000)))]
    )

    private func violation(_ fault: FaultyCoordinator.Fault) -> ContractViolation? {
        let variant = ReadinessVariant(name: "faulty", origin: .user, summary: "x", sim: { FaultyCoordinator(session: $0, fault: fault) })
        do {
            _ = try LaunchFixtures.run(plan, variant)
            return nil
        } catch {
            return error as? ContractViolation
        }
    }

    func testABlockStartedTwiceFails() throws {
        let v = try XCTUnwrap(violation(.runsEachTwice))
        XCTAssertEqual(v.rule, ReadinessContract.startsEveryBlockOnce)
        XCTAssertTrue(v.event.hasPrefix("block 2 (did, registered off main at 2.0s) started again at 2.004s"), v.event)
        XCTAssertNil(violation(.none), "control: each block once")
    }

    func testADidBlockRunOnABackgroundThreadFails() throws {
        let v = try XCTUnwrap(violation(.runsOffMainRegistrationsInPlace))
        XCTAssertEqual(v.rule, ReadinessContract.runsOnItsThread)
        XCTAssertTrue(v.event.hasPrefix("block 2 (did, registered off main at 2.0s) ran off the main executor"), v.event)
        XCTAssertNil(violation(.none), "control: the registration hops to main")
    }

    /// Every built-in coordinator keeps the contract on every context's launch (article-lightweight
    /// included, which ran a did block registered off main after ready on that thread).
    func testEveryBuiltInKeepsTheContract() throws {
        for context in [ProcessContext.mainApp, .nse, .shareExtension] {
            let plan = LaunchPlan.generate(LaunchProfile(context: context), seed: 3)
            for variant in ReadinessVariant.builtIn where variant.hasSimForm {
                XCTAssertNoThrow(try LaunchFixtures.run(plan, variant), "\(variant.info.name) in \(context)")
            }
        }
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: ReadinessContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(ReadinessContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
