import Foundation
import Measurement
import Synchronization
import XCTest

@testable import Caching

/// A user's cache, declared the way a user's package would: an LRU written differently from the
/// suite's (a recency stamp per key, the oldest found by a scan on eviction). LRU eviction is
/// unique, so it must hit exactly where `lru` hits.
private final class StampLRU<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    private var entries: [Key: (value: Value, stamp: Int)] = [:]
    private var clock = 0

    init(capacity: Int) { self.capacity = max(0, capacity) }

    var count: Int { entries.count }

    func get(_ key: Key) -> Value? {
        guard let e = entries[key] else { return nil }
        clock += 1
        entries[key] = (e.value, clock)
        return e.value
    }

    func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        clock += 1
        if entries[key] == nil, entries.count == capacity, let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp }) {
            entries[oldest.key] = nil
        }
        entries[key] = (value, clock)
    }

    func clear() { entries.removeAll() }
}

final class UserCacheVariantTests: XCTestCase {
    private static let userVariant = CacheVariant(
        name: "stamp-lru",
        origin: .user,
        summary: "a user's LRU",
        sim: { capacity, _ in StampLRU(capacity: capacity) },
        live: { capacity, _ in StampLRU(capacity: capacity) }
    )

    private func registry() throws -> VariantRegistry<CacheVariant> {
        var registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        try registry.register(Self.userVariant)
        return registry
    }

    private func simWorkload(_ variants: [String]) throws -> CacheWorkload {
        var c = CacheConfiguration()
        c.capacities = [32, 256]
        c.reads = 3000
        return try CacheWorkload(
            configuration: c,
            environment: WorkloadEnvironment(
                selection: MatrixSelection(scenarios: ["chat-scroll", "launch-rewarm"], variants: variants, seedCount: 2),
                registry: registry()
            )
        )
    }

    private func simResults(_ w: CacheWorkload) throws -> [CacheSimResult] {
        try w.items.map {
            guard case .sim(let r) = try w.run($0) else { throw BenchFailure.runtime("not a sim sample") }
            return r
        }
    }

    /// Sim: the user's type is stepped like any variant, hits exactly where lru hits, and its
    /// records carry origin `user`; sim items stay in process.
    func testUserCacheRunsInSimulationWithOriginUser() throws {
        let w = try simWorkload(["lru", "stamp-lru"])
        let results = try simResults(w)
        for i in stride(from: 0, to: w.items.count, by: 2) {
            XCTAssertEqual(w.items[i].variant.name, "lru")
            XCTAssertEqual(w.items[i + 1].variant.name, "stamp-lru")
            XCTAssertEqual(results[i].hits, results[i + 1].hits, w.label(w.items[i + 1]))
            XCTAssertEqual(results[i].clears, results[i + 1].clears)
            XCTAssertEqual(results[i].latencies, results[i + 1].latencies, "same cost model: an O(1) design without a lock")
        }
        for (item, result) in zip(w.items, results) where item.variant.name == "stamp-lru" {
            XCTAssertTrue(w.runsInChildProcess(item), "a user's cache runs in a child process in virtual time too")
            for group in w.observations(for: item, sample: .sim(result)) {
                XCTAssertEqual(w.variantOrigins[group.variant], .user)
            }
        }
        XCTAssertEqual(w.variantOrigins["lru"], .platform)
        XCTAssertEqual(w.variantOrigins["s3-fifo"], .ours)
        XCTAssertEqual(w.variantOrigins["signal-2021"], .signal)
    }

    /// What `--jobs 2` does: items run from two threads at once, results collected by index.
    func testUserCacheIdenticalForOneOrTwoJobs() throws {
        let w = try simWorkload(["stamp-lru", "random"])
        let sequential = try simResults(w)
        let slots = Mutex<[CacheSimResult?]>(Array(repeating: nil, count: w.items.count))
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for i in stride(from: worker, to: w.items.count, by: 2) {
                if case .sim(let r)? = try? w.run(w.items[i]) { slots.withLock { $0[i] = r } }
            }
        }
        let parallel = slots.withLock { $0 }
        for i in w.items.indices {
            XCTAssertEqual(parallel[i]?.hits, sequential[i].hits)
            XCTAssertEqual(parallel[i]?.latencies, sequential[i].latencies)
            XCTAssertEqual(parallel[i]?.rewarm, sequential[i].rewarm)
        }
    }

    /// Live: the user's real class on real threads behind the harness lock; its live items are
    /// the ones that run in a child process; the sample survives the trip as JSON.
    func testUserCacheRunsLive() throws {
        var c = CacheConfiguration()
        c.mode = .live
        c.capacities = [32]
        c.threads = [1, 2]
        c.operations = ["get", "set", "clear"]
        c.duration = 0.01
        let w = try CacheWorkload(
            configuration: c,
            environment: WorkloadEnvironment(selection: MatrixSelection(variants: ["stamp-lru"], seedCount: 1), registry: registry())
        )
        XCTAssertEqual(w.items.count, 5)
        for item in w.items {
            XCTAssertTrue(w.runsInChildProcess(item))
            XCTAssertEqual(w.timing(item), .real)
            let sample = try w.run(item)
            let decoded = try JSONDecoder().decode(CacheWorkload.Sample.self, from: JSONEncoder().encode(sample))
            guard case .live(let r) = decoded else { return XCTFail("not live") }
            let metric = ["get": "get_ns", "set": "set_ns", "clear": "clear_us"][item.operation!.rawValue]!
            XCTAssertNotNil(r.observations.first { $0.metric == metric }, w.label(item))
            for group in w.observations(for: item, sample: decoded) { XCTAssertEqual(w.variantOrigins[group.variant], .user) }
        }
    }

    func testDuplicateAndReservedNamesAreOneLineUsageErrors() throws {
        var registry = try registry()
        for (name, expected) in [
            ("lru", "already registered"), ("stamp-lru", "already registered"), ("all", "reserved"), ("Bad_Name", "lowercase"),
        ] {
            let v = CacheVariant(
                name: name,
                origin: .user,
                summary: "x",
                sim: { c, _ in StampLRU(capacity: c) },
                live: { c, _ in StampLRU(capacity: c) }
            )
            XCTAssertThrowsError(try registry.register(v)) { error in
                guard let failure = error as? BenchFailure else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.exitCode, 64)
                XCTAssertTrue(failure.message.contains(expected), failure.message)
                XCTAssertFalse(failure.message.contains("\n"))
            }
        }
    }

    /// The suite's own variants, registered as values, replay what the closed enum produced before
    /// (launch-rewarm, main-app, 1024 entries, seed 1, 10000 reads: values of the default run).
    func testBuiltInVariantsReplayTheirResults() throws {
        var c = CacheConfiguration()
        c.capacities = [1024]
        c.contexts = ["main-app"]
        let w = try CacheWorkload(
            configuration: c,
            environment: WorkloadEnvironment(selection: MatrixSelection(scenarios: ["launch-rewarm"], seedCount: 1))
        )
        let expected: [String: (storeReads: Double, p99: Double, storm: Double?, rewarm: Double?)] = [
            "lru": (5611, 167.308, 350, 2290), "signal-2018": (5448, 264.523, nil, nil), "signal-2021": (5611, 259.898, 350, 2290),
            "nscache-corelibs": (5622, 167.348, 397, 2630), "fifo": (5929, 167.789, 286, 1875), "random": (5835, 167.771, 281, 1840),
            "s3-fifo": (5609, 167.308, 443, 2990),
        ]
        XCTAssertEqual(w.items.map(\.variant.name), CacheVariant.builtIn.map(\.name))
        for item in w.items {
            let observations = w.observations(for: item, sample: try w.run(item)).flatMap(\.observations)
            func value(_ m: String) -> Double? { observations.first { $0.metric == m }?.value }
            let e = try XCTUnwrap(expected[item.variant.name])
            XCTAssertEqual(value("store_reads"), e.storeReads, item.variant.name)
            XCTAssertEqual(value("latency_p99_us"), e.p99, item.variant.name)
            XCTAssertEqual(value("miss_storm_reads"), e.storm, item.variant.name)
            XCTAssertEqual(value("rewarm_ms"), e.rewarm, item.variant.name)
        }
    }
}
