import Measurement
import Records
import XCTest

@testable import Locking

/// Fairness and ratio computations on known inputs.
final class FairnessAndRatioTests: XCTestCase {
    func testJainFairnessOfEqualAndSkewedShares() throws {
        XCTAssertEqual(try XCTUnwrap(Statistics.jainFairness([5, 5, 5, 5])), 1, accuracy: 1e-12)
        // One thread got everything: 1/n.
        XCTAssertEqual(try XCTUnwrap(Statistics.jainFairness([8, 0, 0, 0])), 0.25, accuracy: 1e-12)
        // (1+3)² / (2·(1+9)) = 0.8
        XCTAssertEqual(try XCTUnwrap(Statistics.jainFairness([1, 3])), 0.8, accuracy: 1e-12)
    }

    func testSampleFairnessMetrics() throws {
        let sample = ContentionSample(threadOperations: [300, 100], elapsedNanoseconds: 1_000, expectedTotal: 400, observedTotal: 400)
        let metrics = Dictionary(uniqueKeysWithValues: sample.observations().map { ($0.metric, $0.value) })
        XCTAssertEqual(try XCTUnwrap(metrics["jain_fairness"]), 0.8, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(metrics["max_min_share_ratio"]), 3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(metrics["ns_per_op"]), 2.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(metrics["ops_per_s"]), 4e8, accuracy: 1)
        XCTAssertEqual(metrics["lost_updates"], 0)
        XCTAssertNil(metrics["allocs_per_op"], "allocations are not reported when they were not counted")
    }

    func testMaxMinRatioIsInfiniteWhenAThreadStarved() {
        let sample = ContentionSample(threadOperations: [300, 0], elapsedNanoseconds: 1_000, expectedTotal: 300, observedTotal: 290)
        let metrics = Dictionary(uniqueKeysWithValues: sample.observations().map { ($0.metric, $0.value) })
        XCTAssertEqual(metrics["max_min_share_ratio"], .infinity)
        XCTAssertEqual(metrics["lost_updates"], 10)
    }

    func testLostUpdatesIsAbsoluteForOverClearedFlags() {
        let sample = ContentionSample(threadOperations: [2, 2], elapsedNanoseconds: 10, expectedTotal: -1, observedTotal: 0)
        XCTAssertEqual(sample.lostUpdates, 1)
    }

    func testRatiosDivideByTheReferenceMedianOfTheSameCell() throws {
        /// A repetition whose ns/op is `value` (one operation taking `value` ns).
        func run(_ variant: LockVariant, _ value: UInt64, rep: Int) -> AtomicsWorkload.Run {
            AtomicsWorkload.Run(
                variant: variant,
                repetition: rep,
                seed: 1,
                sample: ContentionSample(
                    threadOperations: [1],
                    elapsedNanoseconds: value,
                    expectedTotal: 1,
                    observedTotal: 1,
                    cpuNanoseconds: value
                )
            )
        }
        let single = AtomicsWorkload.Item(cell: ContentionCell(operation: .increment, threads: 1), variants: [])
        let pair = AtomicsWorkload.Item(cell: ContentionCell(operation: .increment, threads: 2), variants: [])
        let results = [
            FinishedItem(
                index: 0,
                item: single,
                sample: AtomicsWorkload.Sample(runs: [
                    run(.atomic, 4, rep: 0), run(.atomic, 6, rep: 1), run(.atomic, 5, rep: 2),  // median 5
                    run(.cPthreadMutex, 10, rep: 0), run(.cPthreadMutex, 30, rep: 1),  // median 20
                    run(.cAtomic, 2, rep: 0),
                    run(.pthreadMutex, 22, rep: 0),
                ])
            ),
            FinishedItem(index: 1, item: pair, sample: AtomicsWorkload.Sample(runs: [run(.pthreadMutex, 99, rep: 0)])),  // no references there
        ]
        let ratios = ReferenceRatios.observations(for: results)
        func ratio(_ variant: String, _ metric: String, threads: String = "1") -> Double? {
            ratios.first { $0.variant == variant && $0.factors["threads"] == threads && $0.observations[0].metric == metric }?.observations[
                0
            ].value
        }
        XCTAssertEqual(try XCTUnwrap(ratio("pthread-mutex", "ratio_to_atomic")), 22.0 / 5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(ratio("pthread-mutex", "ratio_to_c")), 22.0 / 20, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(ratio("pthread-mutex", "cpu_ratio_to_c")), 22.0 / 20, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(ratio("atomic", "ratio_to_c")), 4.0 / 2, accuracy: 1e-12)
        XCTAssertNil(ratio("atomic", "ratio_to_atomic"))
        XCTAssertNil(ratio("c-pthread-mutex", "ratio_to_c"))
        XCTAssertNil(ratio("pthread-mutex", "ratio_to_atomic", threads: "2"))
        XCTAssertTrue(ratios.allSatisfy { $0.observations.allSatisfy { $0.unit == "ratio" } })

        let records = results.flatMap { r in
            r.sample.runs.map { run in
                ResultRecord(
                    runID: "r",
                    workload: "atomics",
                    scenario: "increment",
                    variant: run.variant.name,
                    mode: "live",
                    seed: 1,
                    repetition: run.repetition,
                    metric: "ns_per_op",
                    value: run.sample.nanosecondsPerOperation,
                    unit: "ns",
                    host: "h",
                    factors: r.item.cell.factors
                )
            }
        }
        let overhead = try XCTUnwrap(ReferenceRatios.uncontendedOverhead(Statistics.summarize(records)))
        XCTAssertEqual(overhead.ratio, 22.0 / 20, accuracy: 1e-12)
    }

    func testProbeVerdicts() {
        XCTAssertEqual(CoSchedulingResult.verdict(for: 0.95), "concurrent")
        XCTAssertEqual(CoSchedulingResult.verdict(for: 0.5), "mixed")
        XCTAssertEqual(CoSchedulingResult.verdict(for: 0.01), "serialized")
    }

    func testWorkAmountParsing() {
        XCTAssertEqual(WorkAmount(parsing: "0"), WorkAmount.none)
        XCTAssertEqual(WorkAmount(parsing: "50ns")?.nanoseconds, 50)
        XCTAssertEqual(WorkAmount(parsing: "50ns")?.label, "50ns")
        XCTAssertEqual(WorkAmount(parsing: "1us")?.nanoseconds, 1_000)
        XCTAssertEqual(WorkAmount(parsing: "1µs")?.label, "1us")
        XCTAssertEqual(WorkAmount(parsing: "0.5ms")?.nanoseconds, 500_000)
        for bad in ["", "-5ns", "nanns", "infns", "5", "2ms", "fast"] {
            XCTAssertNil(WorkAmount(parsing: bad), bad)
        }
    }

    func testSpinCalibrationRoundsToAtLeastOneIteration() {
        let calibration = SpinCalibration(nanosecondsPerIteration: 1.5)
        XCTAssertEqual(calibration.iterations(for: .none), 0)
        XCTAssertEqual(calibration.iterations(for: WorkAmount(parsing: "1ns")!), 1)
        XCTAssertEqual(calibration.iterations(for: WorkAmount(parsing: "300ns")!), 200)
    }
}
