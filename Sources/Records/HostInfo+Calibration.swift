import Foundation
import Synchronization

/// Three primitive costs measured on the host at the start of a run, in nanoseconds per operation.
///
/// They explain why same-run ratios move between CPUs (the case that introduced them: a
/// lock-prefixed add costing 2–3× more on a newer EPYC moved every ratio to the atomic floor) and
/// let a reader see at a glance how two hosts differ. They are *not* part of the host identity:
/// on a shared machine they are as noisy as any timing. Each is the best of 5 batches.
public struct HostCalibration: Codable, Hashable, Sendable {
    /// One uncontended `Atomic<Int>.wrappingAdd` (a lock-prefixed add on x86).
    public var atomicAddNs: Double
    /// One uncontended `pthread_mutex_lock` + `pthread_mutex_unlock` pair.
    public var mutexPairNs: Double
    /// One `clock_gettime(CLOCK_MONOTONIC)`.
    public var clockReadNs: Double

    enum CodingKeys: String, CodingKey {
        case atomicAddNs = "atomic_add_ns"
        case mutexPairNs = "mutex_pair_ns"
        case clockReadNs = "clock_read_ns"
    }

    public init(atomicAddNs: Double, mutexPairNs: Double, clockReadNs: Double) {
        self.atomicAddNs = atomicAddNs
        self.mutexPairNs = mutexPairNs
        self.clockReadNs = clockReadNs
    }

    /// Measures the three costs (about 30 ms in a release build).
    public static func measure(operations: Int = 100_000, batches: Int = 5) -> HostCalibration {
        let counter = Atomic<Int>(0)
        let atomic = best(operations, batches) {
            for _ in 0..<operations { counter.wrappingAdd(1, ordering: .relaxed) }
        }
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        defer {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
        let pair = best(operations, batches) {
            for _ in 0..<operations {
                pthread_mutex_lock(mutex)
                pthread_mutex_unlock(mutex)
            }
        }
        var sink: Int = 0
        let read = best(operations, batches) {
            var ts = timespec()
            for _ in 0..<operations {
                clock_gettime(CLOCK_MONOTONIC, &ts)
                sink &+= ts.tv_nsec
            }
        }
        withExtendedLifetime(sink) {}
        return HostCalibration(atomicAddNs: atomic, mutexPairNs: pair, clockReadNs: read)
    }

    /// The lowest ns per operation over `batches` runs of `body` (other processes only slow a batch down).
    static func best(_ operations: Int, _ batches: Int, _ body: () -> Void) -> Double {
        var lowest = Double.infinity
        for _ in 0..<batches {
            let start = now()
            body()
            lowest = min(lowest, Double(now() - start) / Double(operations))
        }
        return (lowest * 100).rounded() / 100
    }

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
