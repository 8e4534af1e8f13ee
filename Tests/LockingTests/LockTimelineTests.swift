import Measurement
import Simulation
import XCTest

@testable import Locking

/// bench-atomics' sampled timeline: sampling keeps every update and its counts are the run's; a
/// lock's sampled holds never overlap; a run that does not record samples nothing.
final class LockTimelineTests: XCTestCase {
    func runner(sampling: LockSampling?, duration: Double = 0.02) -> ContentionRunner {
        var settings = ContentionSettings(duration: duration, warmup: 0, cpuCount: 2, probeDuration: 0, batch: 8)
        settings.sampling = sampling
        return ContentionRunner(clock: SystemMonotonicClock(), calibration: SpinCalibration(nanosecondsPerIteration: 1), settings: settings)
    }

    /// With a sample after every batch of 8 (and no limit reached), each thread did exactly 9
    /// operations per sample; no update is lost; the trace's `done` values add up to `operations`.
    func testSamplingKeepsEveryUpdateAndItsCountsAreTheRuns() throws {
        let runner = runner(sampling: LockSampling(every: 1, limit: 10_000_000))
        for variant in [LockVariant.pthreadMutex, .spinlock, .atomic] {
            for operation in [ContentionOperation.increment, .transition, .flag, .readMostly, .dictionaryUpdate, .arrayAppendDrain]
            where variant.supports(operation) {
                let label = "\(variant.name) \(operation.name)"
                let sample = try runner.measure(ContentionCell(operation: operation, threads: 2), variant: variant, seed: 5)
                XCTAssertEqual(sample.lostUpdates, 0, label)
                XCTAssertEqual(sample.lockSamples.count, 2, label)
                for (ops, samples) in zip(sample.threadOperations, sample.lockSamples) {
                    XCTAssertGreaterThan(samples.count, 0, label)
                    XCTAssertEqual(ops, UInt64(samples.count) * 9, label)
                    for s in samples {
                        XCTAssertLessThanOrEqual(s.start, s.acquired ?? s.start, label)
                        XCTAssertLessThanOrEqual(s.acquired ?? s.start, s.released, label)
                    }
                }
                let events = AtomicsWorkload.events(sample)
                let done = events.filter { $0.name == "done" }.compactMap(\.value).reduce(0, +)
                XCTAssertEqual(done, Double(sample.totalOperations), label)
                let sampled = sample.lockSamples.reduce(0) { $0 + $1.count }
                let locked = sample.lockSamples.joined().allSatisfy { $0.acquired != nil }
                let expectedLocked = variant != .atomic && operation != .arrayAppendDrain
                XCTAssertEqual(locked, expectedLocked, label)
                XCTAssertEqual(events.filter { $0.name == "hold" }.count, expectedLocked ? sampled : 0, label)
                XCTAssertEqual(events.filter { $0.name == "wait" }.count, expectedLocked ? sampled : 0, label)
                XCTAssertEqual(events.filter { $0.name == "operation" }.count, expectedLocked ? 0 : sampled, label)
            }
        }
    }

    /// Holds are timed inside the critical section, so a lock's holds on two threads never overlap.
    func testALocksSampledHoldsNeverOverlap() throws {
        let runner = runner(sampling: LockSampling(every: 1, limit: 10_000_000))
        let work = try XCTUnwrap(WorkAmount(parsing: "200ns"))
        for variant in [LockVariant.pthreadMutex, .spinlock, .mutex] {
            let cell = ContentionCell(operation: .increment, threads: 3, csWork: work)
            let sample = try runner.measure(cell, variant: variant, seed: 1)
            // At least two holds, or the overlap check could pass vacuously (no count that depends on speed).
            XCTAssertGreaterThanOrEqual(sample.lockSamples.joined().filter { $0.acquired != nil }.count, 2, variant.name)
            XCTAssertEqual(Self.overlaps(sample.lockSamples), 0, variant.name)
        }
        // Control: the check finds an overlap where two threads' holds do overlap.
        let overlapping = [
            [LockSample(start: 0, acquired: 10, released: 20)],
            [LockSample(start: 5, acquired: 15, released: 25)],
        ]
        XCTAssertEqual(Self.overlaps(overlapping), 1)
    }

    /// How many holds start before the previous one (in time, any thread) ended.
    static func overlaps(_ threads: [[LockSample]]) -> Int {
        let holds = threads.joined().compactMap { s in s.acquired.map { ($0, s.released) } }.sorted { $0.0 < $1.0 }
        var count = 0
        var end: UInt64 = 0
        for (start, stop) in holds {
            if start < end { count += 1 }
            end = max(end, stop)
        }
        return count
    }

    /// The default run samples nothing; the limit caps what a thread keeps.
    func testADefaultRunSamplesNothingAndTheLimitHolds() throws {
        let plain = try runner(sampling: nil).measure(ContentionCell(operation: .increment, threads: 2), variant: .pthreadMutex, seed: 1)
        XCTAssertTrue(plain.lockSamples.isEmpty)
        XCTAssertTrue(AtomicsWorkload.events(plain).isEmpty)
        // How many batches a thread gets through in the window depends on the scheduler (a loaded
        // host can leave a thread off-CPU for most of 20 ms), so the window doubles until each
        // thread did more batches than the limit; the cap is then checked exactly against what
        // each thread did, never against an assumed speed.
        var capped = try runner(sampling: LockSampling(every: 1, limit: 3))
            .measure(ContentionCell(operation: .increment, threads: 2), variant: .pthreadMutex, seed: 1)
        var duration = 0.02
        while capped.threadOperations.contains(where: { $0 <= 3 * 9 }), duration < 5 {
            duration *= 2
            capped = try runner(sampling: LockSampling(every: 1, limit: 3), duration: duration)
                .measure(ContentionCell(operation: .increment, threads: 2), variant: .pthreadMutex, seed: 1)
        }
        XCTAssertFalse(capped.threadOperations.contains { $0 <= 3 * 9 }, "each thread did more batches than the limit")
        XCTAssertEqual(capped.lockSamples.map(\.count), [3, 3])
    }
}
