import Records
import Simulation
import XCTest

@testable import Invalidation

/// The simulation's rules on hand-written timelines: Signal's designs and their failure modes.
final class InvalidationSimulationTests: XCTestCase {
    /// Deliveries take exactly 0.5 ms (no jitter), so every window is exact.
    var scenario: InvalidationScenario {
        var s = InvalidationScenario.catalogue[0]
        s.deliveryJitterMean = .zero
        s.deliveryBase = .microseconds(500)
        return s
    }

    func ms(_ x: Double) -> Int64 { Int64(x * 1_000_000) }

    func run(_ v: InvalidationVariant, _ plan: InvalidationPlan, debounce: SimDuration = .seconds(3)) -> InvalidationTally {
        InvalidationSimulation.run(variant: v, scenario: scenario, plan: plan, seed: 1, debounceInterval: debounce)
    }

    /// A 100 ms plan over 8 rows with these writes and main-app reads, and nothing else.
    func plan(writes: [InvalidationPlan.Write], mainReads: [InvalidationPlan.Read]) -> InvalidationPlan {
        InvalidationPlan(durationNs: ms(100), keys: 8, writes: writes, mainReads: mainReads)
    }

    func value(_ t: InvalidationTally, _ metric: String) -> Double { t.observations.first { $0.metric == metric }!.value }

    /// Main caches row 1; NSE writes it at 10 ms; main writes row 2 at 10.2 ms; main reads row 1
    /// again at 20 ms.
    var racePlan: InvalidationPlan {
        InvalidationPlan(
            durationNs: ms(100),
            keys: 8,
            writes: [.init(timeNs: ms(10), role: .nse, keys: [1]), .init(timeNs: ms(10.2), role: .main, keys: [2])],
            mainReads: [
                .init(timeNs: ms(1), key: 1), .init(timeNs: ms(1), key: 3), .init(timeNs: ms(20), key: 1), .init(timeNs: ms(20), key: 3),
            ]
        )
    }

    /// The old design's race (SDSCrossProcess.m): the main app's own post overwrites the shared
    /// state before the NSE's delivery is handled, so the handler sees "its own pid" and drops an
    /// invalidation that was not its own.
    func testLegacyLosesAnInvalidationWhenMainWritesCloseBehind() {
        let legacy = run(.signalLegacy, racePlan)
        XCTAssertEqual(legacy.missedInvalidations, 1)
        XCTAssertEqual(legacy.staleReads, 1)
        XCTAssertEqual(legacy.handlerRuns, 1)
        XCTAssertEqual(legacy.postsDelivered, 2)  // the two posts coalesced into one delivery
        XCTAssertEqual(value(legacy, "coalescing_ratio"), 2)
        // Today's design: one name per role, nothing to overwrite.
        let signal = run(.signal, racePlan)
        XCTAssertEqual(signal.missedInvalidations, 0)
        XCTAssertEqual(signal.staleReads, 0)
        XCTAssertEqual(signal.evacuations, 1)
        XCTAssertEqual(signal.staleness.values, [ms(0.5)])  // commit → evacuation = the delivery delay
    }

    /// Without the race (main does not write), the legacy design invalidates like today's.
    func testLegacyWorksWithOneWriter() {
        var plan = racePlan
        plan.writes.removeLast()
        XCTAssertEqual(run(.signalLegacy, plan).missedInvalidations, 0)
        XCTAssertEqual(run(.signalLegacy, plan).staleReads, 0)
    }

    /// The control must serve stale reads (proof that the stale-read count can fail).
    func testNoInvalidationServesStaleReads() {
        let t = run(.noInvalidation, racePlan)
        XCTAssertEqual(t.staleReads, 1)
        XCTAssertEqual(t.missedInvalidations, 1)
        XCTAssertEqual(t.stalenessCensored, 1)
        XCTAssertEqual(t.staleness.values, [ms(100) - ms(10)])  // open until the end of the run
    }

    /// A read between the commit and the delivery is stale under Signal's design; the change log
    /// is consulted before the read and is not.
    func testReadBeforeDeliveryIsStaleUnderSignalNotUnderChangeLog() {
        let plan = plan(
            writes: [.init(timeNs: ms(10), role: .share, keys: [1])],
            mainReads: [.init(timeNs: ms(1), key: 1), .init(timeNs: ms(10.1), key: 1)]
        )
        XCTAssertEqual(run(.signal, plan).staleReads, 1)
        XCTAssertEqual(run(.changeLog, plan).staleReads, 0)
        XCTAssertEqual(run(.changeLog, plan).logQueries, 1)
    }

    /// Signal empties the whole cache; the change log evicts only the written row, so an
    /// unrelated row stays a hit (and Signal's re-read of it is an extra store read).
    func testChangeLogEvictsOnlyWrittenRows() {
        let signal = run(.signal, racePlan)
        let ours = run(.changeLog, racePlan)
        XCTAssertEqual(signal.hits, 0)
        XCTAssertEqual(signal.extraStoreReads, 1)  // row 3, dropped though unchanged
        XCTAssertEqual(ours.hits, 1)  // row 3 at 20 ms
        XCTAssertEqual(ours.extraStoreReads, 1)  // the one log query
        XCTAssertEqual(ours.targetedEvictions, 1)
        XCTAssertEqual(ours.evacuations, 0)
    }

    /// While active, the UI refreshes through firstLast(3 s): a foreign commit at 1 s refreshes
    /// at once (after the delivery), one at 2 s waits for 1.0005 + 3 s.
    func testUIRefreshThroughFirstLastWhileActive() {
        let plan = InvalidationPlan(
            durationNs: ms(10_000),
            keys: 8,
            writes: [.init(timeNs: ms(1000), role: .nse, keys: [1]), .init(timeNs: ms(2000), role: .nse, keys: [2])],
            mainReads: []
        )
        let t = run(.signal, plan)
        XCTAssertEqual(t.uiRefreshes, 2)
        XCTAssertEqual(t.uiRefreshLatency.values, [ms(0.5), ms(4000.5) - ms(2000)])
    }

    /// While inactive, deliveries only set a flag: one refresh on the next activation.
    func testOneRefreshOnNextActivationWhileInactive() {
        let plan = InvalidationPlan(
            durationNs: ms(10_000),
            keys: 8,
            writes: [
                .init(timeNs: ms(2000), role: .nse, keys: [1]), .init(timeNs: ms(2500), role: .nse, keys: [2]),
                .init(timeNs: ms(3000), role: .nse, keys: [3]),
            ],
            mainReads: [],
            activations: [.init(timeNs: ms(1000), active: false), .init(timeNs: ms(6000), active: true)]
        )
        let t = run(.signal, plan)
        XCTAssertEqual(t.uiRefreshes, 1)
        XCTAssertEqual(t.handlerRuns, 3)
        XCTAssertEqual(t.evacuations, 3)  // caches are emptied on every delivery, active or not
        XCTAssertEqual(t.uiRefreshLatency.values, [ms(4000), ms(3500), ms(3000)])
    }

    /// The share extension never invalidates under Signal's designs (an inference from the code).
    func testShareExtensionServesStaleUnderSignal() {
        let plan = InvalidationPlan(
            durationNs: ms(100),
            keys: 8,
            writes: [.init(timeNs: ms(20), role: .nse, keys: [1])],
            mainReads: [],
            shareReads: [.init(timeNs: ms(11), key: 1), .init(timeNs: ms(30), key: 1)],
            shareSessionStarts: [ms(10)]
        )
        XCTAssertEqual(run(.signal, plan).shareStaleReads, 1)
        XCTAssertEqual(run(.changeLog, plan).shareStaleReads, 0)
    }

    /// The main app's own writes update its cache (didInsertOrUpdate): never stale, no post to itself.
    func testOwnWritesAreNeverStale() {
        let plan = plan(
            writes: [.init(timeNs: ms(10), role: .main, keys: [1])],
            mainReads: [.init(timeNs: ms(1), key: 1), .init(timeNs: ms(11), key: 1)]
        )
        let t = run(.signal, plan)
        XCTAssertEqual(t.staleReads, 0)
        XCTAssertEqual(t.hits, 1)
        XCTAssertEqual(t.handlerRuns, 0)
    }

    func testLRUEvictsLeastRecentlyUsed() {
        var c = ReaderCache(capacity: 2)
        c.store(1, version: 0)
        c.store(2, version: 0)
        _ = c.lookup(1)
        XCTAssertEqual(c.store(3, version: 0)?.key, 2)
        XCTAssertNotNil(c.peek(1))
        XCTAssertNil(c.peek(2))
    }

    func testSameSeedSameResultOtherSeedDifferent() {
        let s = InvalidationScenario.catalogue[2].scaled(by: 0.2)
        func obs(_ seed: UInt64) -> [Observation] {
            InvalidationSimulation.run(variant: .signalLegacy, scenario: s, plan: InvalidationPlan(scenario: s, seed: seed), seed: seed)
                .observations
        }
        XCTAssertEqual(obs(7), obs(7))
        XCTAssertNotEqual(obs(7), obs(8))
    }

    /// Recording the timeline changes no result; its stale-read instants and UI refreshes are the
    /// tally's.
    func testRecordingATraceChangesNothing() {
        for variant in InvalidationVariant.allCases {
            let scenario = InvalidationScenario.catalogue[0].scaled(by: 0.1)
            let plan = InvalidationPlan(scenario: scenario, seed: 2)
            let plain = InvalidationSimulation.run(variant: variant, scenario: scenario, plan: plan, seed: 2)
            let traced = InvalidationSimulation.record(variant: variant, scenario: scenario, plan: plan, seed: 2, trace: true)
            XCTAssertEqual(plain.observations, traced.tally.observations, variant.rawValue)
            let stale = traced.trace.filter { $0.name == "stale read" && $0.track == "main app" }.count
            XCTAssertEqual(stale, plain.staleReads, variant.rawValue)
            XCTAssertEqual(traced.trace.filter { $0.name == "UI refresh" }.count, plain.uiRefreshes, variant.rawValue)
        }
    }
}
