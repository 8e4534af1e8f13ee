import Measurement
import Records
import Simulation
import Timelines

/// What one simulated (trace, context, capacity, variant, seed) measured.
public struct CacheSimResult: Sendable {
    public var reads = 0
    public var hits = 0
    public var clears = 0
    public var capacity = 0
    public var missStormReads = 0
    public var rewarm = SimDuration.zero
    public var unrecovered = 0
    /// Read latencies through cache and store, sorted, in ns.
    public var latencies: [Int64] = []
    /// For `lru`: hits of an independent stack-distance simulation of the same reads and clears.
    public var referenceHits: Int?
    /// The run's timeline (`CacheTimeline`); empty unless the run recorded it.
    public var trace: [TraceEvent] = []
    /// The first broken rule of the cache's contract (`CacheContract`), which fails the item;
    /// never encoded: the item's run throws it instead of returning the result.
    public var violation: ContractViolation?

    public var hitRatio: Double { reads > 0 ? Double(hits) / Double(reads) : 0 }

    /// The percentiles `observations` reports (as fractions of the reads).
    static let reportedPercentiles: [Double] = [0.50, 0.99, 0.999, 1]
    /// Those percentiles, once `latencies` is dropped (`withoutLatencies()`); nil while it is kept.
    var keptPercentiles: [Double]?

    /// The result without its per-read latencies, which are most of its size (a read each), and
    /// with the percentiles it reports kept: what the report holds per item, so that memory does
    /// not grow with the reads times `--seeds`. Its observations are the same.
    public func withoutLatencies() -> CacheSimResult {
        var copy = self
        copy.keptPercentiles = Self.reportedPercentiles.map(percentile)
        copy.latencies = []
        return copy
    }

    func percentile(_ p: Double) -> Double {
        if let keptPercentiles, let i = Self.reportedPercentiles.firstIndex(of: p) { return keptPercentiles[i] }
        guard !latencies.isEmpty else { return 0 }
        // Nearest rank: the smallest value with at least p of the reads at or below it.
        let rank = max(1, Int((p * Double(latencies.count)).rounded(.up)))
        return Double(latencies[min(rank, latencies.count) - 1]) / 1000
    }

    public var observations: [Observation] {
        var out = [
            Observation("hit_ratio", hitRatio, "ratio"),
            Observation("store_reads", Double(reads - hits), "reads"),
            Observation("capacity_effective", Double(capacity), "entries"),
            Observation("clears", Double(clears), "count"),
            Observation("latency_p50_us", percentile(0.50), "us"),
            Observation("latency_p99_us", percentile(0.99), "us"),
            Observation("latency_p999_us", percentile(0.999), "us"),
            Observation("latency_max_us", percentile(1), "us"),
        ]
        // Re-warm metrics exist only where the cache was cleared (the schema omits, never zeroes).
        if clears > 0 {
            out.append(Observation("miss_storm_reads", Double(missStormReads), "reads"))
            out.append(Observation("rewarm_ms", rewarm.milliseconds, "ms"))
            out.append(Observation("rewarm_unrecovered", Double(unrecovered), "count"))
        }
        if let referenceHits {
            out.append(Observation("reference_hit_ratio", reads > 0 ? Double(referenceHits) / Double(reads) : 0, "ratio"))
        }
        return out
    }
}

/// Steps one cache through a trace in virtual time: each read is a `get`; a miss reads the backing
/// store and `set`s the value (read-through, as Signal's callers do). Lifecycle events clear the
/// cache when the variant's generation listens to them in this process.
public enum CacheSimulation {
    /// One item's simulation, as the variant's specialized closure receives it.
    struct Request: Sendable {
        var lifecycle: LifecycleRule
        var cost: OperationCostModel.Shape
        var capacity: Int
        var trace: AccessTrace
        var profile: CacheProfile
        var context: ProcessContext
        var seed: UInt64
        var store: BackingStore
        var costs: OperationCostModel
        var reference: Bool
        var recordTimeline = false
    }

    public static func run(
        variant: CacheVariant,
        trace: AccessTrace,
        profile: CacheProfile,
        context: ProcessContext,
        seed: UInt64,
        store: BackingStore = BackingStore(),
        costs: OperationCostModel = OperationCostModel(),
        reference: Bool = false,
        recordTimeline: Bool = false
    ) -> CacheSimResult {
        variant.simulate(
            Request(
                lifecycle: variant.lifecycle,
                cost: variant.cost,
                capacity: variant.capacity(for: profile, in: context),
                trace: trace,
                profile: profile,
                context: context,
                seed: seed,
                store: store,
                costs: costs,
                reference: reference,
                recordTimeline: recordTimeline
            )
        )
    }

    /// The simulation proper, generic over the cache type so that every read calls it directly.
    static func run<Cache: CountBoundedCache<Int, Int>>(
        _ request: Request,
        cache make: (_ capacity: Int, _ seed: UInt64) -> Cache
    ) -> CacheSimResult {
        let (trace, profile, context, costs) = (request.trace, request.profile, request.context, request.costs)
        let capacity = request.capacity
        var policyGenerator = SeededGenerator.stream(2, of: request.seed)
        let cache = make(capacity, policyGenerator.next())
        var storeGenerator = SeededGenerator.stream(3, of: request.seed)
        var result = CacheSimResult()
        result.capacity = capacity
        result.reads = trace.keys.count
        var clearAt: [Int] = []
        var eventIndex = 0
        let events = trace.events.sorted { $0.index < $1.index }
        var hitRecord = [Bool](repeating: false, count: trace.keys.count)
        var latencies = [Int64](repeating: 0, count: trace.keys.count)
        var timeline = request.recordTimeline ? CacheTimeline(interval: trace.interval, reads: trace.keys.count) : nil
        // The contract, checked beside the calls: two comparisons per read, no allocation.
        var check = ContractCheck()
        var justSet: (key: Int, wasFull: Bool)?  // the key the previous read stored, until a clear
        for (i, key) in trace.keys.enumerated() {
            while eventIndex < events.count, events[eventIndex].index <= i {
                let clears = request.lifecycle.clears(on: events[eventIndex].event, in: context, profile: profile)
                if clears {
                    cache.clear()
                    justSet = nil
                    if clearAt.last != i { clearAt.append(i) }
                }
                timeline?.lifecycle(events[eventIndex].event, before: i, cleared: clears, counted: clearAt.last == i)
                eventIndex += 1
            }
            let held = cache.count
            check.require(
                0 <= held && held <= capacity,
                CacheContract.countWithinCapacity,
                at: Self.event("before read \(i) (get(\(key)))", i, trace, "count \(held), capacity \(capacity)")
            )
            var cost: SimDuration
            let hit = cache.get(key) != nil
            if !hit, let set = justSet, set.key == key, !set.wasFull, capacity > 0 {
                check.record(
                    CacheContract.keepsWhatWasSet.violated(
                        at: Self.event("read \(i): get(\(key)) missed", i, trace, "set by read \(i - 1)")
                    )
                )
            }
            justSet = nil
            if hit {
                hitRecord[i] = true
                result.hits += 1
                cost = costs.cost(request.cost, count: held, touchesOrder: true)
            } else {
                cost = costs.cost(request.cost, count: held, touchesOrder: false) + request.store.readCost(&storeGenerator)
                cost = cost + costs.cost(request.cost, count: held, touchesOrder: capacity > 0)
                cache.set(key, key)
                justSet = (key, held >= capacity)
            }
            latencies[i] = cost.nanoseconds
            timeline?.read(i, key: key, hit: hitRecord[i], cost: cost, occupancy: cache.count)
        }
        let held = cache.count
        check.require(
            0 <= held && held <= capacity,
            CacheContract.countWithinCapacity,
            at: Self.event("after the last read", trace.keys.count, trace, "count \(held), capacity \(capacity)")
        )
        result.violation = check.first
        if var timeline {
            timeline.finish()
            result.trace = timeline.events
        }
        result.clears = clearAt.count
        let rewarm = RewarmAnalysis(hits: hitRecord, clears: clearAt)
        result.missStormReads = rewarm.missStormReads
        result.rewarm = trace.interval * Int64(rewarm.rewarmReads)
        result.unrecovered = rewarm.unrecovered
        LatencySort.sort(&latencies)
        result.latencies = latencies
        if request.reference {
            result.referenceHits = StackDistanceReference.hits(keys: trace.keys, capacity: capacity, clears: Set(clearAt))
        }
        return result
    }

    /// A violating event for the failure line: what happened, when in virtual time (reads are
    /// `trace.interval` apart), and the values that broke the rule.
    static func event(_ what: String, _ read: Int, _ trace: AccessTrace, _ values: String) -> String {
        "\(what) at \(CSVWriter.format(Double((trace.interval * Int64(read)).nanoseconds) / 1e6)) ms: \(values)"
    }
}
