import Foundation
import XCTest

@testable import Simulation

final class DeterminismTests: XCTestCase {
    func testSameSeedGivesIdenticalTrace() {
        let model = ArrivalModel.markovModulated(calmRate: 2, burstRate: 120, meanCalm: 3, meanBurst: 0.5, rows: .geometric(mean: 2))
        let a = Array(CommitTrace.generated(model, seed: 7, duration: .seconds(30)))
        let b = Array(CommitTrace.generated(model, seed: 7, duration: .seconds(30)))
        let c = Array(CommitTrace.generated(model, seed: 8, duration: .seconds(30)))
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
    }

    /// Golden values: these exact nanoseconds come out on every machine and in every build
    /// configuration, because nothing on the path uses libm. If this test fails on some platform,
    /// virtual-time results are no longer comparable across machines.
    func testGoldenPoissonTrace() {
        let trace = Array(CommitTrace.generated(.poisson(rate: 10, rows: .geometric(mean: 3)), seed: 42, duration: .seconds(5)))
        let golden = GoldenValues.poissonSeed42
        XCTAssertEqual(golden.count, 6)
        XCTAssertEqual(trace.prefix(golden.count).map { [$0.time.nanoseconds, Int64($0.rows)] }, golden)
    }

    func testPregeneratedMatchesLazy() {
        let model = ArrivalModel.syncStorm(rows: .uniform(12...20), minGap: 0.025, maxGap: 0.080, stormDuration: 8, afterRate: 1)
        let lazy = Array(CommitTrace.generated(model, seed: 3, duration: .seconds(10)))
        let eager = Array(CommitTrace.pregenerated(model, seed: 3, duration: .seconds(10)))
        let capped = Array(CommitTrace.pregenerated(model, seed: 3, duration: .seconds(10), limit: 5))
        XCTAssertEqual(lazy, eager)
        XCTAssertEqual(lazy, capped, "past the limit the trace stays lazy but identical")
    }

    func testEventQueueOrdersByTimeThenPriorityThenInsertion() {
        var q = EventQueue<String>()
        q.schedule("late", at: SimInstant(nanoseconds: 20))
        q.schedule("vsync", at: SimInstant(nanoseconds: 10), priority: 1)
        q.schedule("first", at: SimInstant(nanoseconds: 10))
        q.schedule("second", at: SimInstant(nanoseconds: 10))
        var order: [String] = []
        while let (_, e) = q.next() { order.append(e) }
        XCTAssertEqual(order, ["first", "second", "vsync", "late"])
    }
}
