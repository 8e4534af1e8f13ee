import ContractBreakers
import Foundation
import Measurement
import Simulation
import XCTest

@testable import Readiness

/// Each rule of `ReadinessContract` fails a launch that breaks it, naming the block and when;
/// the same coordinator without the fault (the control) passes, on the same launch.
final class ReadinessContractTests: XCTestCase {
    /// A will and a polite block at launch, and a did block registered off main after ready.
    private let plan = LaunchFixtures.plan(
        .nse,
        [(.will, 2, .launch), (.polite, 3, .launch), (.did, 4, .offMain(SimInstant(nanoseconds: 2_000_000_000)))]
    )

    private func violation(_ fault: CoordinatorFault) -> ContractViolation? {
        let variant = ReadinessVariant(name: "faulty", origin: .user, summary: "x", sim: { ContractCoordinator(session: $0, fault: fault) })
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
