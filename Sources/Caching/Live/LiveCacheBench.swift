import Foundation
import Measurement
import Records
import Simulation
import Synchronization
import Timelines

/// What one live cell measured.
public struct LiveCacheResult: Sendable, Codable {
    public var observations: [Observation] = []
    /// The cell's timeline when recording (`LiveCacheTimeline`), else empty.
    public var trace: [TraceEvent] = []
}

/// Runs the real cache implementations on real threads, timed with the injected clock.
///
/// `get`/`set`: the cache is filled to capacity, then `threads` threads call the operation in a
/// loop for `duration`, each timing its own loop (ns/op = Σ thread time / Σ calls: the mean time a
/// caller waits for one call). Keys come from a per-thread seeded shuffle so threads do not walk
/// the same keys in lockstep. `clear`: fill, time one `clear()`, five times, median. `fill`:
/// bytes the filling thread left allocated (jemalloc's thread.allocated − thread.deallocated)
/// per entry. Allocation requests are process-wide, so they are only counted single-threaded.
public struct LiveCacheBench: Sendable {
    public var clock: any MonotonicClock
    public var duration: SimDuration
    package var jemalloc: JemallocCounters?
    /// Whether cells record their timeline (`--perfetto`, `--events`): sampled batches, clears and
    /// each thread's operations. A default run reads no clock it did not read before.
    package var recordTimeline: Bool

    package init(clock: any MonotonicClock, duration: SimDuration, jemalloc: JemallocCounters?, recordTimeline: Bool = false) {
        self.clock = clock
        self.duration = duration
        self.jemalloc = jemalloc
        self.recordTimeline = recordTimeline
    }

    /// Boxes a cache for the worker threads. Only variants whose `isThreadSafe` is true are ever
    /// shared by more than one thread (the workload never schedules a `.singleThreaded` one contended).
    private struct Shared: @unchecked Sendable {
        let cache: any CountBoundedCache<Int, CachedValue>
    }

    /// Runs one cell; throws the first broken rule of `CacheContract`, checked outside the timed
    /// windows (after each fill, after the measured loop and after each clear).
    public func run(
        _ operation: LiveOperation,
        variant: CacheVariant,
        capacity: Int,
        threads: Int,
        seed: UInt64
    ) throws(ContractViolation) -> LiveCacheResult {
        precondition(threads == 1 || variant.isThreadSafe, "\(variant.name) is not thread-safe")
        let universe = max(1, capacity) * 3
        let values = (0..<universe).map { CachedValue(id: $0) }
        let cache = Shared(cache: variant.makeLive(capacity, seed))
        var result = LiveCacheResult()
        var check = ContractCheck()
        switch operation {
        case .fill:
            guard let jemalloc else { return result }
            jemalloc.flushThreadCache()
            let before = jemalloc.threadAllocatedBytes() &- jemalloc.threadDeallocatedBytes()
            // The cache is created inside the window: storage reserved at init (lru reserves its
            // map) belongs to its cost per entry.
            let cache = Shared(cache: variant.makeLive(capacity, seed))
            for k in 0..<capacity { cache.cache.set(k, values[k]) }
            let after = jemalloc.threadAllocatedBytes() &- jemalloc.threadDeallocatedBytes()
            // Both must outlive the reading: ARC may release them right after their last use, and
            // freeing the preallocated values during the window would count against the cache.
            withExtendedLifetime(values) {}
            Self.checkFilled(cache.cache, capacity: capacity, values: values, &check)
            result.observations.append(
                Observation("bytes_per_entry", capacity > 0 ? Double(Int64(bitPattern: after &- before)) / Double(capacity) : 0, "bytes")
            )
        case .clear:
            var samples: [Double] = []
            var timeline = recordTimeline ? LiveCacheTimeline(origin: clock.now().nanoseconds) : nil
            for _ in 0..<5 {
                for k in 0..<capacity { cache.cache.set(k, values[k]) }
                Self.checkFilled(cache.cache, capacity: capacity, values: values, &check)
                let start = clock.now()
                cache.cache.clear()
                let end = clock.now()
                Self.checkCount(cache.cache, capacity: capacity, after: "clear()", &check)
                samples.append(Double((end - start).nanoseconds) / 1000)
                timeline?.slice("clear", thread: 0, start: start.nanoseconds, end: end.nanoseconds, value: Double(capacity))
            }
            if var timeline {
                timeline.done(thread: 0, operations: samples.count)
                result.trace = timeline.events
            }
            samples.sort()
            result.observations.append(Observation("clear_us", samples[samples.count / 2], "us"))
        case .get, .set:
            for k in 0..<capacity { cache.cache.set(k, values[k]) }
            Self.checkFilled(cache.cache, capacity: capacity, values: values, &check)
            let measured = loop(operation, cache: cache, values: values, capacity: capacity, threads: threads, seed: seed)
            Self.checkCount(cache.cache, capacity: capacity, after: "the measured \(operation) calls", &check)
            let metric = operation == .get ? "get_ns" : "set_ns"
            result.observations.append(Observation(metric, measured.nsPerOp, "ns"))
            result.observations.append(Observation(metric.replacingOccurrences(of: "_ns", with: "_cpu_ns"), measured.cpuNsPerOp, "ns"))
            result.observations.append(Observation("ops", Double(measured.ops), "calls"))
            if let allocations = measured.allocations, measured.ops > 0 {
                result.observations.append(Observation("allocs_per_op", Double(allocations) / Double(measured.ops), "allocations"))
            }
            result.trace = measured.trace
        }
        try check.verify()
        return result
    }

    /// After a fill of keys 0..<capacity into an empty cache: the count is within the capacity,
    /// and the last key set is held (the cache held fewer than `capacity` entries before it, so
    /// no design may refuse it). The `get` runs outside every timed window.
    private static func checkFilled(
        _ cache: any CountBoundedCache<Int, CachedValue>,
        capacity: Int,
        values: [CachedValue],
        _ check: inout ContractCheck
    ) {
        checkCount(cache, capacity: capacity, after: "filling \(capacity) keys", &check)
        guard capacity > 0 else { return }
        let last = capacity - 1
        check.require(
            cache.get(last) === values[last],
            CacheContract.keepsWhatWasSet,
            at: "get(\(last)) right after set(\(last)), the last of the fill: it did not return the value set"
        )
    }

    private static func checkCount(
        _ cache: any CountBoundedCache<Int, CachedValue>,
        capacity: Int,
        after: String,
        _ check: inout ContractCheck
    ) {
        let count = cache.count
        check.require(
            count == -1 || (0 <= count && count <= capacity),
            CacheContract.countWithinCapacity,
            at: "after \(after): count \(count), capacity \(capacity)"
        )
    }

    private struct Measured {
        var nsPerOp: Double
        var cpuNsPerOp: Double
        var ops: Int
        var allocations: UInt64?
        var trace: [TraceEvent]
    }

    /// The calling thread's CPU time: unlike the wall time it does not grow while the thread waits
    /// for a core, so on a loaded host it separates the cost of a call from the queue for the CPU.
    private static func threadCPUNanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    private func loop(
        _ operation: LiveOperation,
        cache: Shared,
        values: [CachedValue],
        capacity: Int,
        threads: Int,
        seed: UInt64
    ) -> Measured {
        let state = LoopState()
        let group = DispatchGroup()
        let clock = self.clock
        let jemalloc = threads == 1 ? self.jemalloc : nil
        let universe = values.count
        let sampling = recordTimeline ? LiveCacheSampling() : nil
        for t in 0..<threads {
            var g = SeededGenerator.stream(UInt64(10 + t), of: seed)
            // Held keys for get (all of 0..<capacity are held after the fill), new keys for set.
            let keys: [Int] = (0..<4096).map { _ in
                operation == .get
                    ? Int(g.nextInt(in: 0...Int64(max(1, capacity) - 1)))
                    : Int(g.nextInt(in: Int64(capacity)...Int64(universe - 1)))
            }
            group.enter()
            Thread.detachNewThread {
                state.ready.add(1, ordering: .sequentiallyConsistent)
                while !state.go.load(ordering: .acquiring) { sched_yield() }
                let requestsBefore = jemalloc.map { j -> UInt64 in
                    j.flushThreadCache()
                    return j.processAllocationRequests()
                }
                let start = clock.now()
                let cpuStart = LiveCacheBench.threadCPUNanoseconds()
                var ops = 0
                var i = 0
                var sink = 0
                var sampled: [(start: Int64, end: Int64)] = []
                /// One batch of 32 calls, the unit both loops below count: timed or not, the same calls.
                @inline(__always) func runBatch() {
                    for _ in 0..<32 {
                        let key = keys[i & 4095]
                        if operation == .get {
                            sink &+= cache.cache.get(key)?.id ?? 0
                        } else {
                            cache.cache.set(key, values[key])
                        }
                        i &+= 1
                    }
                    ops += 32
                }
                if let sampling {
                    // The measuring loop below, with every `sampling.every`-th batch timed as a
                    // whole (two clock reads, up to `sampling.limit` per thread): the same calls,
                    // counted in `ops` as they are when not recording.
                    sampled.reserveCapacity(sampling.limit)
                    var countdown = sampling.every
                    while !state.stop.load(ordering: .relaxed) {
                        countdown -= 1
                        let timed = countdown == 0 && sampled.count < sampling.limit
                        let batchStart = timed ? clock.now().nanoseconds : 0
                        runBatch()
                        if timed { sampled.append((batchStart, clock.now().nanoseconds)) }
                        if countdown == 0 { countdown = sampling.every }
                    }
                } else {
                    while !state.stop.load(ordering: .relaxed) {
                        runBatch()
                    }
                }
                let elapsed = (clock.now() - start).nanoseconds
                let cpu = LiveCacheBench.threadCPUNanoseconds() - cpuStart
                if let jemalloc, let requestsBefore {
                    jemalloc.flushThreadCache()
                    let after = jemalloc.processAllocationRequests()
                    state.allocations.withLock { $0 = after &- requestsBefore }
                }
                let threadOps = ops + (sink == .min ? 1 : 0)
                state.totals.withLock {
                    $0.ns += elapsed
                    $0.cpu += cpu
                    $0.ops += threadOps
                }
                if sampling != nil {
                    state.threadSamples.withLock { $0[t] = (sampled, threadOps) }
                }
                group.leave()
            }
        }
        while state.ready.load(ordering: .sequentiallyConsistent) < threads { sched_yield() }
        let origin = clock.now().nanoseconds
        state.go.store(true, ordering: .releasing)
        clock.sleep(for: duration)
        state.stop.store(true, ordering: .relaxed)
        group.wait()
        let (ns, cpu, ops) = state.totals.withLock { $0 }
        var trace: [TraceEvent] = []
        if sampling != nil {
            var timeline = LiveCacheTimeline(origin: origin)
            let perThread = state.threadSamples.withLock { $0 }
            for t in 0..<threads {
                guard let (sampled, threadOps) = perThread[t] else { continue }
                for s in sampled { timeline.slice(operation.rawValue, thread: t, start: s.start, end: s.end, value: 32) }
                timeline.done(thread: t, operations: threadOps)
            }
            trace = timeline.events
        }
        return Measured(
            nsPerOp: ops > 0 ? Double(ns) / Double(ops) : 0,
            cpuNsPerOp: ops > 0 ? Double(cpu) / Double(ops) : 0,
            ops: ops,
            allocations: state.allocations.withLock { $0 },
            trace: trace
        )
    }
}

/// The flags and totals the worker threads of one cell share.
private final class LoopState: Sendable {
    let stop = Atomic<Bool>(false)
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
    let totals = LockedState<(ns: Int64, cpu: Int64, ops: Int)>((0, 0, 0))
    let allocations = LockedState<UInt64?>(nil)
    /// Each thread's sampled batches and operations, when recording.
    let threadSamples = LockedState<[Int: (sampled: [(start: Int64, end: Int64)], ops: Int)]>([:])
}
