import Foundation
import XCTest

@testable import Simulation

final class ArrivalModelTests: XCTestCase {
    func testPoissonRateAndOrder() {
        let trace = Array(CommitTrace.generated(.poisson(rate: 50, rows: .fixed(1)), seed: 1, duration: .seconds(200)))
        XCTAssertEqual(Double(trace.count) / 200, 50, accuracy: 2.5)
        XCTAssertEqual(trace.map(\.time), trace.map(\.time).sorted())
        XCTAssertTrue(trace.allSatisfy { $0.time < SimInstant.zero + .seconds(200) })
    }

    func testOnOffIsSilentWhenOff() {
        let trace = Array(CommitTrace.generated(.onOff(rate: 100, on: 1, off: 2, rows: .fixed(1)), seed: 5, duration: .seconds(30)))
        XCTAssertFalse(trace.isEmpty)
        for c in trace {
            let phase = c.time.seconds.truncatingRemainder(dividingBy: 3)
            XCTAssertLessThan(phase, 1.0000001, "commit at \(c.time) falls in an off phase")
        }
    }

    func testSyncStormGapsAndSizes() {
        let model = ArrivalModel.syncStorm(rows: .uniform(12...20), minGap: 0.025, maxGap: 0.080, stormDuration: 5, afterRate: 0)
        let trace = Array(CommitTrace.generated(model, seed: 9, duration: .seconds(10)))
        XCTAssertTrue(trace.allSatisfy { (12...20).contains($0.rows) })
        for (a, b) in zip(trace, trace.dropFirst()) {
            let gap = (b.time - a.time).seconds
            XCTAssertGreaterThanOrEqual(gap, 0.025 - 1e-9)
            XCTAssertLessThanOrEqual(gap, 0.080 + 1e-9)
        }
        XCTAssertLessThan(trace.last!.time.seconds, 5.081, "afterRate 0: nothing after the storm")
    }

    func testParetoBurstsAreHeavyTailed() {
        let model = ArrivalModel.paretoBursts(burstRate: 2, alpha: 1.2, minCommits: 5, gap: 0.001, rows: .fixed(1))
        let trace = Array(CommitTrace.generated(model, seed: 11, duration: .seconds(600)))
        // Split into bursts at gaps longer than the intra-burst gap.
        var sizes: [Int] = [1]
        for (a, b) in zip(trace, trace.dropFirst()) {
            if (b.time - a.time).nanoseconds > 1_000_001 { sizes.append(1) } else { sizes[sizes.count - 1] += 1 }
        }
        let sorted = sizes.sorted()
        let median = sorted[sorted.count / 2]
        XCTAssertLessThan(median, 15)
        XCTAssertGreaterThan(sorted.last!, 20 * median, "a Pareto tail has bursts far above the median")
    }

    func testGeometricRowsMean() {
        var rng = SeededGenerator(seed: 3)
        let n = 100_000
        var sum = 0
        for _ in 0..<n { sum += Int(RowDistribution.geometric(mean: 4).sample(&rng)) }
        XCTAssertEqual(Double(sum) / Double(n), 4, accuracy: 0.05)
    }

    func testDeterministicMathMatchesLibm() {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<10_000 {
            let x = rng.nextOpenUnit() * 100
            XCTAssertEqual(DeterministicMath.log(x), Foundation.log(x), accuracy: abs(Foundation.log(x)) * 1e-14 + 1e-15)
            let y = (rng.nextUnit() - 0.5) * 60
            XCTAssertEqual(DeterministicMath.exp(y), Foundation.exp(y), accuracy: Foundation.exp(y) * 1e-14)
        }
        XCTAssertEqual(DeterministicMath.log(1), 0)
        XCTAssertEqual(DeterministicMath.exp(0), 1)
        XCTAssertEqual(DeterministicMath.exp(1000), .infinity)
        XCTAssertEqual(DeterministicMath.exp(-1000), 0)
    }
}
