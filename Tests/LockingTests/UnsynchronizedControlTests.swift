import Simulation
import XCTest

@testable import Locking

/// The control: with no lock, concurrent read-modify-writes lose updates. Kept in its own class so
/// the ThreadSanitizer run can skip it (it is a data race on purpose).
final class UnsynchronizedControlTests: XCTestCase {
    func testUnsynchronizedIncrementLosesUpdates() throws {
        // On 2 vCPUs a short run can happen to interleave cleanly (or run one thread at a time), so
        // repeat until losses show, with a cap far above what is ever needed (usually the first run).
        let runner = ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: ContentionSettings(duration: 0.03, warmup: 0, cpuCount: 2, probeDuration: 0)
        )
        var attempts = 0
        var lost: UInt64 = 0
        while lost == 0 && attempts < 300 {
            attempts += 1
            let sample = try runner.measure(
                ContentionCell(operation: .increment, threads: 4),
                variant: .unsynchronized,
                seed: UInt64(attempts)
            )
            XCTAssertLessThanOrEqual(sample.observedTotal, sample.expectedTotal, "a lost update can only lower the count")
            lost = sample.lostUpdates
        }
        XCTAssertGreaterThan(lost, 0, "no update was lost in \(attempts) runs of the unsynchronized control")
    }

    func testUnsynchronizedIsCorrectOnOneThread() throws {
        let runner = ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: ContentionSettings(duration: 0.01, warmup: 0, cpuCount: 1, probeDuration: 0)
        )
        for operation in ContentionOperation.allCases where LockVariant.unsynchronized.supports(operation) {
            let sample = try runner.measure(ContentionCell(operation: operation, threads: 1), variant: .unsynchronized, seed: 1)
            XCTAssertEqual(sample.lostUpdates, 0, operation.name)
        }
    }
}
