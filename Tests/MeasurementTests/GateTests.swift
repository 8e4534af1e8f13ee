import Foundation
import XCTest
@testable import Measurement

final class GateTests: XCTestCase {
    func rec(_ variant: String, _ metric: String, _ value: Double, seed: UInt64 = 1, rep: Int = 0, mode: String = "sim", scenario: String = "s") -> ResultRecord {
        ResultRecord(runID: "r", workload: "w", scenario: scenario, variant: variant, mode: mode, seed: seed, repetition: rep,
                     metric: metric, value: value, unit: "u", host: "h")
    }

    func threshold(_ id: String, variant: String = "a", metric: String = "m", aggregate: Threshold.Aggregate? = nil,
                   bound: Threshold.Bound? = nil, compare: Threshold.Comparison? = nil) -> Threshold {
        Threshold(id: id, kind: .deterministic, workload: "w", scenario: "*", variant: variant, excludeVariants: nil,
                  modeOverride: nil, metric: metric, factors: nil,
                  aggregate: aggregate, bound: bound, compare: compare, reason: "r")
    }

    func testBoundsAndComparisonsPassAndFail() throws {
        let records = [rec("a", "m", 1, seed: 1), rec("a", "m", 3, seed: 2, rep: 1), rec("b", "m", 2, seed: 1), rec("b", "m", 2, seed: 2, rep: 1)]
        let outcomes = try ThresholdCheck.evaluate([
            threshold("median-le", bound: .init(op: .le, value: 2)),
            threshold("all-le", aggregate: .all, bound: .init(op: .le, value: 2)),
            threshold("median-vs-b", compare: .init(op: .le, variant: "b", metric: nil, factor: nil)),
            threshold("all-vs-b", aggregate: .all, compare: .init(op: .le, variant: "b", metric: nil, factor: nil)),
            threshold("scaled", aggregate: .all, compare: .init(op: .le, variant: "b", metric: nil, factor: 1.5)),
        ], on: records)
        XCTAssertEqual(outcomes.map(\.status), [.pass, .fail, .pass, .fail, .pass])
        XCTAssertTrue(outcomes[3].detail.contains("1 of 2 failing"), outcomes[3].detail)
    }

    func testUnknownMetricIsAnErrorAndMissingWorkloadIsSkipped() {
        XCTAssertThrowsError(try ThresholdCheck.evaluate([threshold("typo", metric: "ltency")], on: [rec("a", "m", 1)])) { error in
            XCTAssertEqual((error as? GateError)?.exitCode, 2)
            XCTAssertTrue("\(error)".contains("'ltency' is not a metric of workload w"))
        }
        var t = threshold("other")
        t.workload = "clock"
        XCTAssertEqual(try ThresholdCheck.evaluate([t], on: [rec("a", "m", 1)]).map(\.status), [.skipped])
    }

    func testDeterministicComparisonReportsEveryChange() {
        let base = [rec("a", "m", 1), rec("a", "n", 2)]
        let same = BaselineComparison.compare(current: base, baseline: base, hardwareMetrics: [])
        XCTAssertEqual(same.changes, [])
        let changed = BaselineComparison.compare(current: [rec("a", "m", 1.0000001), rec("a", "o", 5)], baseline: base, hardwareMetrics: [])
        XCTAssertEqual(changed.deterministicRegressions.count, 2, "m changed, n disappeared")
        XCTAssertEqual(changed.changes.count, 3, "o is new")
    }

    func testMannWhitneyOnKnownSamples() {
        // Completely separated samples of 5: U = 25, mean 12.5, variance 5·5·11/12,
        // z = (25 − 12.5 − 0.5) / sqrt(22.917) = 2.5067, p = 0.0061.
        let p = MannWhitney.pGreater(current: [6, 7, 8, 9, 10], baseline: [1, 2, 3, 4, 5])
        XCTAssertEqual(p, 0.5 * erfc(12 / (275.0 / 12).squareRoot() / 2.0.squareRoot()), accuracy: 1e-12)
        XCTAssertEqual(p, 0.0061, accuracy: 0.0001)
        XCTAssertGreaterThan(MannWhitney.pGreater(current: [1, 2, 3, 4, 5], baseline: [6, 7, 8, 9, 10]), 0.99)
        XCTAssertEqual(MannWhitney.pGreater(current: [3, 3, 3], baseline: [3, 3, 3]), 1, "no evidence either way")
    }

    /// The hardware comparison must flag a 25 % slowdown and must not flag noise alone.
    func testHardwareComparisonCatchesA25PercentSlowdownButNotNoise() {
        var rng = SystemRandomNumberGenerator()
        let metric = HardwareMetric(workload: "w", metric: "ratio", scenario: nil, factors: nil, tolerance: 0.10, alpha: 0.01,
                                    direction: .lowerIsBetter, reason: "r")
        func sample(_ center: Double) -> [Double] { (0..<10).map { _ in center * Double.random(in: 0.95...1.05, using: &rng) } }
        func records(_ values: [Double]) -> [ResultRecord] {
            values.enumerated().map { rec("a", "ratio", $0.element, rep: $0.offset, mode: "live") }
        }
        let base = records(sample(2))
        let slow = BaselineComparison.compare(current: records(sample(2.5)), baseline: base, hardwareMetrics: [metric])
        XCTAssertEqual(slow.hardware.map(\.status), [.regression])
        let same = BaselineComparison.compare(current: records(sample(2)), baseline: base, hardwareMetrics: [metric])
        XCTAssertEqual(same.hardware.map(\.status), [.ok], "±5 % noise is below the 10 % tolerance")
        let few = BaselineComparison.compare(current: records([2.5, 2.5]), baseline: base, hardwareMetrics: [metric])
        XCTAssertEqual(few.hardware.map(\.status), [.inconclusive])
    }

    func testThresholdFileErrorsNameTheField() throws {
        let dir = NSTemporaryDirectory() + "thresholds-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func check(_ json: String, _ expected: String, line: UInt = #line) throws {
            let path = dir + "/t.json"
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try ThresholdFileReader.read(path: path), line: line) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)", line: line)
                XCTAssertEqual((error as? GateError)?.exitCode, 2, line: line)
            }
        }
        let head = #"{"schema_version": 1, "hardware_metrics": [], "thresholds": ["#
        let t = #""id": "x", "kind": "deterministic", "workload": "w", "scenario": "*", "variant": "*", "metric": "m", "reason": "r""#
        try check(head + "{" + t + #", "bound": {"op": "<=", "value": "ten"}}]}"#, "thresholds[0].bound.value")
        try check(head + "{" + t + #", "bound": {"op": "=<", "value": 1}}]}"#, "thresholds[0].bound.op")
        try check(head + "{" + t + "}]}", "exactly one of bound and compare")
        try check(#"{"schema_version": 2, "hardware_metrics": [], "thresholds": []}"#, "schema_version: expected 1, found 2")
        try check("{", "not valid JSON")
    }
}
