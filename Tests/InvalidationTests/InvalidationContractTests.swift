import Measurement
import Simulation
import XCTest

@testable import Invalidation

/// Each rule of `InvalidationContract` fails a run that breaks it, naming the first read or the
/// counts; the same run without the fault (the control) passes, and so does every built-in design.
final class InvalidationContractTests: XCTestCase {
    private let scenario = InvalidationScenario.catalogue[0].scaled(by: 0.25)

    private func violation(_ variant: InvalidationVariant, _ fault: InvalidationFault) -> ContractViolation? {
        let plan = InvalidationPlan(scenario: scenario, seed: 1)
        return InvalidationSimulation.record(variant: variant, scenario: scenario, plan: plan, seed: 1, trace: false, fault: fault)
            .violation
    }

    /// A change log that also empties the cache on each delivery, without reporting it, misses a
    /// row the cache should have kept.
    func testACacheEmptiedWithoutAnEvacuationFails() throws {
        let v = try XCTUnwrap(violation(.changeLog, .emptiesCacheSilently))
        XCTAssertEqual(v.rule, InvalidationContract.keepsItsCache)
        XCTAssertTrue(v.event.hasPrefix("read of row "), v.event)
        XCTAssertTrue(v.event.contains(": missed a row the cache kept"), v.event)
        XCTAssertNil(violation(.changeLog, .none), "control: the same design without the fault")
    }

    func testEveryBuiltInDesignKeepsTheContract() {
        for s in InvalidationScenario.catalogue.map({ $0.scaled(by: 0.25) }) {
            let plan = InvalidationPlan(scenario: s, seed: 2)
            for variant in InvalidationVariant.allCases {
                XCTAssertNil(
                    InvalidationSimulation.record(variant: variant, scenario: s, plan: plan, seed: 2, trace: false).violation,
                    "\(variant) \(s.name)"
                )
            }
        }
    }

    /// A tally whose counts contradict each other fails; a consistent one (the control) passes.
    func testATallyThatContradictsItselfFails() throws {
        var tally = InvalidationTally()
        tally.reads = 10
        tally.hits = 6
        tally.staleReads = 2
        tally.foreignCommits = 3
        tally.missedInvalidations = 3
        XCTAssertNil(tally.contractViolation(mode: "live"), "control")
        var moreStaleThanHits = tally
        moreStaleThanHits.staleReads = 7
        let v = try XCTUnwrap(moreStaleThanHits.contractViolation(mode: "live"))
        XCTAssertEqual(v.rule, InvalidationContract.accountsForEveryRead)
        XCTAssertEqual(v.event, "the end of the live run: 7 stale reads > 6 hits")
        var missedMore = tally
        missedMore.missedInvalidations = 4
        XCTAssertEqual(
            missedMore.contractViolation(mode: "sim")?.event,
            "the end of the sim run: 4 missed invalidations of 3 foreign commits"
        )
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: InvalidationContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(InvalidationContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
