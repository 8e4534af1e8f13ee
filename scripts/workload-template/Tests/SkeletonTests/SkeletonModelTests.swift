import Measurement
import Simulation
import XCTest

@testable import Skeleton

/// The placeholder model's rules: every request handled once, the same seed the same numbers,
/// coalescing runs the handler less often in bursts and (the control) not when requests come alone.
final class SkeletonModelTests: XCTestCase {
    func tally(_ variant: SkeletonVariant, _ scenario: String, seed: UInt64 = 1, interval: Int = 50) throws -> SkeletonTally {
        let scenario = try XCTUnwrap(SkeletonScenario.catalogue.first { $0.name == scenario })
        return SkeletonSimulation.run(
            variant: variant,
            scenario: scenario,
            seed: seed,
            interval: .milliseconds(interval),
            handlerCost: .milliseconds(5)
        )
    }

    func testEveryRequestIsHandledOnce() throws {
        for variant in SkeletonVariant.allCases {
            for scenario in SkeletonScenario.catalogue {
                let t = try tally(variant, scenario.name)
                XCTAssertGreaterThan(t.requests, 0)
                XCTAssertEqual(t.handled, t.requests, "\(variant) \(scenario.name)")
            }
        }
    }

    func testTheSameSeedGivesTheSameNumbersAndAnotherSeedOthers() throws {
        XCTAssertEqual(try tally(.coalesce, "bursts", seed: 7), try tally(.coalesce, "bursts", seed: 7))
        XCTAssertNotEqual(try tally(.coalesce, "bursts", seed: 7), try tally(.coalesce, "bursts", seed: 8))
    }

    func testCoalescingRunsTheHandlerLessOftenInBursts() throws {
        let each = try tally(.eachRequest, "bursts"), coalesced = try tally(.coalesce, "bursts")
        XCTAssertEqual(each.handlerRuns, each.requests)
        XCTAssertLessThan(coalesced.handlerRuns, each.handlerRuns)
        XCTAssertGreaterThan(coalesced.latencyMax, each.latencyMax - 50_000_000)
    }

    /// The control: requests that arrive alone (gaps far above interval and cost) leave nothing to
    /// coalesce, so the comparison above is not true by construction.
    func testRequestsArrivingAloneAreNotCoalesced() throws {
        let each = try tally(.eachRequest, "steady", interval: 1), coalesced = try tally(.coalesce, "steady", interval: 1)
        XCTAssertEqual(coalesced.handlerRuns, each.handlerRuns)
    }

    /// The report ranks per scenario: coalescing first in bursts, each request alone first when
    /// requests come alone (the same handler runs, less latency), so the order is not fixed.
    func testTheReportRanksTheVariantsPerScenario() throws {
        let workload = try SkeletonWorkload(configuration: SkeletonConfiguration())
        let table = try workload.replayedReport(workload.runEveryItem(), complete: true).table
        let first = table.split(separator: "\n").filter { $0.hasPrefix("1 ") }.map { $0.split(separator: " ")[1] }
        XCTAssertEqual(first, ["each-request", "coalesce"], table)
    }
}
