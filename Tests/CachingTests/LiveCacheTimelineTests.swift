import Measurement
import Simulation
import XCTest

@testable import Caching

/// A live cell's timeline: recording changes no deterministic part of the result (which metrics,
/// in which units), a run that does not record has none, and the trace's counts are the run's
/// (the `done` values add up to `ops`, one track per thread, five clears).
final class LiveCacheTimelineTests: XCTestCase {
    private func bench(recording: Bool, duration: SimDuration = .milliseconds(20)) -> LiveCacheBench {
        LiveCacheBench(clock: SystemMonotonicClock(), duration: duration, jemalloc: nil, recordTimeline: recording)
    }

    /// The slices a traced run must hold: each thread times its `every`-th batches of 32 calls, up
    /// to `limit`, and its `done` value says how many calls it made.
    private func expectedSlices(_ result: LiveCacheResult) -> Int {
        let sampling = LiveCacheSampling()
        return result.trace.filter { $0.kind == .instant && $0.name == "done" }
            .map { min(sampling.limit, Int($0.value ?? 0) / 32 / sampling.every) }.reduce(0, +)
    }

    private func shape(_ r: LiveCacheResult) -> [String] { r.observations.map { "\($0.metric) \($0.unit)" } }

    func testRecordingChangesNoMetricAndDoneCountsAreTheOperations() throws {
        let variant = try XCTUnwrap(CacheVariant.builtIn.first { $0.isThreadSafe })
        for operation in [LiveOperation.get, .set] {
            for threads in [1, 3] {
                let label = "\(operation) \(threads)t"
                let plain = try bench(recording: false).run(operation, variant: variant, capacity: 64, threads: threads, seed: 1)
                // How many batches a thread makes in the window depends on the scheduler (a loaded
                // host or ThreadSanitizer can keep every thread under 64 batches in 20 ms), so the
                // window doubles until at least one batch was sampled; the count is then exact.
                var duration = SimDuration.milliseconds(20)
                var traced = try bench(recording: true).run(operation, variant: variant, capacity: 64, threads: threads, seed: 1)
                while expectedSlices(traced) == 0, duration < .seconds(5) {
                    duration = duration + duration
                    traced = try bench(recording: true, duration: duration)
                        .run(operation, variant: variant, capacity: 64, threads: threads, seed: 1)
                }
                XCTAssertEqual(shape(plain), shape(traced), label)
                XCTAssertTrue(plain.trace.isEmpty, label)

                let ops = try XCTUnwrap(traced.observations.first { $0.metric == "ops" }?.value, label)
                let done = traced.trace.filter { $0.kind == .instant && $0.name == "done" }
                XCTAssertEqual(done.count, threads, label)
                XCTAssertEqual(Set(done.map(\.track)), Set((1...threads).map { "thread \($0)" }), label)
                XCTAssertEqual(done.compactMap(\.value).reduce(0, +), ops, label)
                let slices = traced.trace.filter { $0.kind == .slice }
                XCTAssertFalse(slices.isEmpty, label)
                XCTAssertTrue(slices.allSatisfy { $0.name == operation.rawValue && $0.value == 32 }, label)
                // Sampled: exactly one batch in 64 of the calls each thread made is on the timeline.
                XCTAssertEqual(slices.count, expectedSlices(traced), label)
                XCTAssertTrue(traced.trace.allSatisfy { $0.startNanoseconds >= 0 }, label)
            }
        }
    }

    func testClearsAreSlicesAndControlFails() throws {
        let variant = try XCTUnwrap(CacheVariant.builtIn.first)
        let plain = try bench(recording: false).run(.clear, variant: variant, capacity: 100, threads: 1, seed: 1)
        let traced = try bench(recording: true).run(.clear, variant: variant, capacity: 100, threads: 1, seed: 1)
        XCTAssertEqual(shape(plain), shape(traced))
        XCTAssertTrue(plain.trace.isEmpty)
        let clears = traced.trace.filter { $0.kind == .slice && $0.name == "clear" }
        XCTAssertEqual(clears.count, 5)
        XCTAssertTrue(clears.allSatisfy { $0.value == 100 && $0.track == "thread 1" })
        XCTAssertEqual(traced.trace.last?.name, "done")
        XCTAssertEqual(traced.trace.last?.value, 5)
        // Control: another operation measures other metrics, so the shape comparison can fail.
        let get = try bench(recording: false).run(.get, variant: variant, capacity: 100, threads: 1, seed: 1)
        XCTAssertNotEqual(shape(plain), shape(get))
    }

    /// A user variant runs live in a child process: its timeline comes back through Codable.
    func testTheTimelineSurvivesTheChildProcessHandOff() throws {
        let variant = try XCTUnwrap(CacheVariant.builtIn.first)
        let result = try bench(recording: true).run(.clear, variant: variant, capacity: 10, threads: 1, seed: 1)
        XCTAssertFalse(result.trace.isEmpty)
        let data = try JSONEncoder().encode(result)
        XCTAssertEqual(try JSONDecoder().decode(LiveCacheResult.self, from: data).trace, result.trace)
    }
}
