import BenchCommandLine
import Foundation
import Synchronization
import XCTest

final class ItemSchedulerTests: XCTestCase {
    /// A deterministic "simulation": the same index gives the same value on any thread.
    static func work(_ index: Int) -> UInt64 {
        var x = UInt64(index) &+ 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        return x
    }

    func results(jobs: Int, count: Int, alone: Set<Int> = []) -> [UInt64?] {
        var out = [UInt64?](repeating: nil, count: count)
        ItemScheduler(jobs: jobs).run(
            count: count,
            isAlone: { alone.contains($0) },
            shouldStop: { false },
            work: { Self.work($0) },
            deliver: { index, result in out[index] = try? result.get() }
        )
        return out
    }

    func testResultsDoNotDependOnJobs() {
        let one = results(jobs: 1, count: 40)
        XCTAssertFalse(one.contains(nil))
        for jobs in [2, 3, 8] {
            XCTAssertEqual(results(jobs: jobs, count: 40, alone: [0, 7, 8, 39]), one, "jobs \(jobs)")
        }
    }

    func testParallelItemsOverlapAndAloneItemsNeverDo() {
        let running = Atomic<Int>(0)
        let maxBesideAlone = Atomic<Int>(0)
        let maxOverall = Atomic<Int>(0)
        let alone: Set<Int> = [5, 6, 12]
        ItemScheduler(jobs: 4).run(
            count: 20,
            isAlone: { alone.contains($0) },
            shouldStop: { false },
            work: { index in
                let now = running.add(1, ordering: .sequentiallyConsistent).newValue
                _ = maxOverall.max(now, ordering: .sequentiallyConsistent)
                if alone.contains(index) { _ = maxBesideAlone.max(now, ordering: .sequentiallyConsistent) }
                usleep(20_000)
                running.subtract(1, ordering: .sequentiallyConsistent)
                return index
            },
            deliver: { _, _ in }
        )
        XCTAssertEqual(maxBesideAlone.load(ordering: .sequentiallyConsistent), 1, "an .alone item ran beside another")
        XCTAssertGreaterThan(maxOverall.load(ordering: .sequentiallyConsistent), 1, "parallel items never overlapped: --jobs did nothing")
    }

    func testStopLetsItemsInFlightFinishAndStartsNoMore() {
        let stop = Atomic<Bool>(false)
        var delivered: [Int] = []
        ItemScheduler(jobs: 2).run(
            count: 50,
            isAlone: { _ in false },
            shouldStop: { stop.load(ordering: .sequentiallyConsistent) },
            work: { index in
                if index == 3 { stop.store(true, ordering: .sequentiallyConsistent) }
                usleep(5_000)
                return index
            },
            deliver: { index, _ in delivered.append(index) }
        )
        XCTAssertTrue(delivered.contains(3), "the item that asked to stop still finished")
        XCTAssertLessThan(delivered.count, 10, "items kept starting after the stop: \(delivered)")
    }

    /// An interrupt does not wait for an item in flight that may be abandoned (a virtual-time
    /// item, a child the item's own thread kills): `run` returns and the item is not delivered.
    /// The control: the same item that may not be abandoned is waited for and delivered.
    func testStopAbandonsWhatMayBeAbandonedAndWaitsForTheRest() {
        // The four cases side by side: each that may not abandon waits out its 1 s.
        sideBySide([1, 2].flatMap { jobs in [true, false].map { (jobs, $0) } }) { jobs, abandon in
            let stop = Atomic<Bool>(false)
            let release = DispatchSemaphore(value: 0)
            var delivered: [Int] = []
            ItemScheduler(jobs: jobs).run(
                count: 10,
                isAlone: { _ in false },
                canAbandon: { _ in abandon },
                shouldStop: { stop.load(ordering: .sequentiallyConsistent) },
                work: { index in
                    if index == 0 {
                        stop.store(true, ordering: .sequentiallyConsistent)
                        // Released by the test once `run` has returned (abandoned), or after 1 s.
                        _ = release.wait(timeout: .now() + 1)
                    }
                    return index
                },
                deliver: { index, _ in delivered.append(index) }
            )
            release.signal()
            XCTAssertEqual(delivered.contains(0), !abandon, "jobs \(jobs), abandon \(abandon): \(delivered)")
        }
    }

    func testAFailureStopsTheSegmentAndIsDelivered() {
        struct Boom: Error {}
        var failures: [Int] = []
        var successes = 0
        ItemScheduler(jobs: 2).run(
            count: 200,
            isAlone: { _ in false },
            shouldStop: { false },
            work: { index in
                if index == 2 { throw Boom() }
                usleep(2_000)
                return index
            },
            deliver: { index, result in
                if case .failure = result { failures.append(index) } else { successes += 1 }
            }
        )
        XCTAssertEqual(failures, [2])
        XCTAssertLessThan(successes, 50, "the pool went on after a failure")
    }

    func testTicksWhileALongItemRuns() {
        // What lets progress speak during a long item: the calling thread ticks while it waits,
        // not only when a result arrives (one item, so one delivery).
        // Both cases side by side: each waits out its 300 ms item.
        sideBySide([1, 2]) { jobs in
            var ticksBeforeDelivery = 0
            var delivered = false
            ItemScheduler(jobs: jobs).run(
                count: 1,
                isAlone: { _ in false },
                shouldStop: { false },
                work: { index in
                    usleep(300_000)
                    return index
                },
                deliver: { _, _ in delivered = true },
                tick: { if !delivered { ticksBeforeDelivery += 1 } }
            )
            XCTAssertTrue(delivered)
            XCTAssertGreaterThanOrEqual(ticksBeforeDelivery, 3, "jobs \(jobs)")
        }
    }

    /// Runs `body` for each case, each on a thread of its own, all at once, and returns when all
    /// have: cases that mostly wait take as long as the slowest, not as their sum.
    /// XCTest's assertions record into the running test from any thread.
    func sideBySide<Case: Sendable>(_ cases: [Case], _ body: @escaping @Sendable (Case) -> Void) {
        let done = DispatchGroup()
        for item in cases {
            done.enter()
            Thread {
                body(item)
                done.leave()
            }.start()
        }
        done.wait()
    }
}
