import Simulation
import XCTest

@testable import Readiness

/// Signal's ordering rules, replayed on timelines taken from ReadyFlag.swift and AppReadiness.m
/// (see docs/signal-fidelity.md). NSE context: no screen, so nothing else shares the executor.
final class SignalOrderingTests: XCTestCase {
    /// `setIsReady`: the flag first, then every will block FIFO, then every did block FIFO, all
    /// in the ready turn — whatever order the kinds were registered in.
    func testFlagFirstThenWillThenDidFIFOInTheReadyTurn() throws {
        let plan = LaunchFixtures.plan(.nse, [(.did, 3, .launch), (.will, 1, .launch), (.did, 4, .launch), (.will, 2, .launch)])
        let r = try LaunchFixtures.run(plan, .signal)
        XCTAssertEqual(r.runs.map(\.block.id), [1, 3, 0, 2])
        XCTAssertEqual(r.appReady, r.readyTurnStart, "the flag is set before any block runs")
        XCTAssertEqual(r.runs.first?.start, r.readyTurnStart)
        XCTAssertEqual(r.runs.last?.end, r.readyTurnEnd, "every sync block ran inside the ready turn")
    }

    /// `performDidBecomeReadyAsyncTasks`: the first polite block 25 ms after the ready call
    /// returns, each next one 25 ms after the previous one finished, one per turn.
    func testPoliteChainPacing() throws {
        let plan = LaunchFixtures.plan(.nse, [(.did, 10, .launch), (.polite, 5, .launch), (.polite, 7, .launch), (.polite, 3, .launch)])
        let r = try LaunchFixtures.run(plan, .signal)
        let did = r.runs.first { $0.block.kind == .did }!
        let polite = r.runs.filter { $0.block.kind == .polite }
        XCTAssertEqual(polite.map(\.block.id), [1, 2, 3])
        XCTAssertEqual(polite[0].start, did.end + .milliseconds(25))
        XCTAssertEqual(polite[1].start, polite[0].end + .milliseconds(25))
        XCTAssertEqual(polite[2].start, polite[1].end + .milliseconds(25))
        // 10 + 25 + 5 + 25 + 7 + 25 + 3 ms from the start of the ready turn.
        XCTAssertEqual(polite[2].end - r.readyTurnStart!, .milliseconds(100))
    }

    /// After ready, a polite registration is a plain `main.async`: it runs before the chain's
    /// remaining blocks, which wait on their 25 ms timers.
    func testPostReadyRegistrationOvertakesTheChain() throws {
        let plan = LaunchFixtures.plan(
            .nse,
            [
                (.polite, 5, .launch), (.polite, 5, .launch), (.polite, 5, .launch),
                (.polite, 1, .main(SimInstant(nanoseconds: 90_000_000))),
            ]
        )
        let r = try LaunchFixtures.run(plan, .signal)
        // Prelaunch 50 ms, ready at 50, chain block 0 at 75–80 ms; the late block registers at
        // 90 ms while block 1 waits for its timer (80 + 25 = 105 ms): it runs at once.
        let polite = r.runs.filter { $0.block.kind == .polite }
        XCTAssertEqual(polite.map(\.block.id), [0, 3, 1, 2])
        XCTAssertEqual(polite[1].start, SimInstant(nanoseconds: 90_000_000))
        XCTAssertEqual(r.overtakes, 1)
        // The control: ours keeps one FIFO, nothing overtakes.
        let ours = try LaunchFixtures.run(plan, .frameAware)
        XCTAssertEqual(ours.runs.filter { $0.block.kind == .polite }.map(\.block.id), [0, 1, 2, 3])
        XCTAssertEqual(ours.overtakes, 0)
    }

    /// After ready, sync kinds run inline in the registering turn.
    func testPostReadySyncRegistrationRunsInline() throws {
        let late = SimInstant(nanoseconds: 500_000_000)
        let plan = LaunchFixtures.plan(.nse, [(.did, 2, .launch), (.did, 3, .main(late))])
        let r = try LaunchFixtures.run(plan, .signal)
        XCTAssertEqual(r.runs.last?.start, late)
    }

    /// ~2021: `sorted { $0.priority <= $1.priority }` with every priority 0 reverses the list —
    /// Swift's real sort, at every size Signal could have had.
    func testNonStrictComparatorReversesWithSwiftSort() {
        for n in [2, 3, 7, 15, 19, 20, 21, 40, 64, 200] {
            let items = Array(0..<n)
            XCTAssertEqual(NonStrictPrioritySort.sorted(items) { _ in 0 }, Array(items.reversed()), "n = \(n)")
            // The control: a strict comparator keeps the order (the sort is stable here).
            XCTAssertEqual(items.sorted { _, _ in false }, items, "n = \(n)")
        }
    }

    func testSignal2021RunsEveryListLIFO() throws {
        let plan = LaunchFixtures.plan(
            .nse,
            [
                (.will, 1, .launch), (.will, 1, .launch), (.did, 1, .launch), (.did, 1, .launch),
                (.polite, 1, .launch), (.polite, 1, .launch), (.polite, 1, .launch),
            ]
        )
        let r = try LaunchFixtures.run(plan, .signal2021LIFO)
        XCTAssertEqual(r.runs.map(\.block.id), [1, 0, 3, 2, 6, 5, 4])
        XCTAssertEqual(r.overtakes, 2)
    }

    /// 2018: one list, flag first, everything — polite included — in the ready turn.
    func testSignal2018Stampede() throws {
        let plan = LaunchFixtures.plan(.nse, [(.polite, 20, .launch), (.did, 5, .launch), (.will, 1, .launch), (.polite, 30, .launch)])
        let r = try LaunchFixtures.run(plan, .signal2018)
        XCTAssertEqual(r.runs.map(\.block.id), [0, 1, 2, 3], "registration order, kinds ignored")
        XCTAssertEqual(r.appReady, r.readyTurnStart)
        XCTAssertEqual(r.readyTurnEnd! - r.readyTurnStart!, .milliseconds(56))
        XCTAssertEqual(r.maxTurn, .milliseconds(56))
    }

    /// The article: tasks run before the flag is set.
    func testArticleSetsTheFlagAfterItsTasks() throws {
        let plan = LaunchFixtures.plan(.nse, [(.did, 5, .launch), (.polite, 7, .launch)])
        let r = try LaunchFixtures.run(plan, .articleLightweight)
        XCTAssertEqual(r.appReady! - r.readyTurnStart!, .milliseconds(12))
    }

    /// A main-app-only polite block checks the context when it runs: in an extension it still
    /// takes its 25 ms slot in the chain.
    func testMainAppOnlyBlocksWasteSlotsInExtensions() throws {
        let blocks: [(BlockKind, Int, ReadinessBlock.Registration)] = [(.polite, 5, .launch), (.polite, 5, .launch), (.polite, 5, .launch)]
        let nse = try LaunchFixtures.run(LaunchFixtures.plan(.nse, blocks, mainAppOnly: [0, 1]), .signal)
        XCTAssertEqual(nse.wastedSlots, 2)
        let polite = nse.runs.filter { $0.block.kind == .polite }
        XCTAssertEqual(polite[2].start - polite[1].end, .milliseconds(25))
        XCTAssertEqual(polite[0].end - polite[0].start, ReadinessBlock.noOpCost)
        let ours = try LaunchFixtures.run(LaunchFixtures.plan(.nse, blocks, mainAppOnly: [0, 1]), .frameAware)
        XCTAssertEqual(ours.wastedSlots, 0)
        XCTAssertEqual(ours.runs.filter { $0.block.kind == .polite }.map(\.block.id), [2])
    }
}
