import Simulation
import XCTest

@testable import Invalidation

/// The main app's reaction, the state machine both modes step.
final class MainAppReactionTests: XCTestCase {
    func s(_ x: Int) -> SimInstant { SimInstant(nanoseconds: Int64(x) * 1_000_000_000) }

    func testEveryDeliveryEvacuatesAndTheUIGoesThroughFirstLast() {
        var app = MainAppReaction(variant: .signal, cacheCapacity: 4, debounceInterval: .seconds(3))
        app.cache.store(1, version: 0)
        let first = app.delivery(at: s(1), stateIsOwnPid: false)
        XCTAssertTrue(first.acted)
        XCTAssertEqual(first.evacuated?.map(\.key), [1])
        XCTAssertEqual(first.refresh, .now)
        app.cache.store(2, version: 0)
        let second = app.delivery(at: s(2), stateIsOwnPid: false)
        XCTAssertEqual(second.evacuated?.map(\.key), [2])  // no debounce on evacuation
        XCTAssertEqual(second.refresh, .at(s(4)))
        XCTAssertEqual(app.delivery(at: s(3), stateIsOwnPid: false).refresh, .none)
    }

    func testInactiveDeliveriesGiveOneRefreshOnActivation() {
        var app = MainAppReaction(variant: .signal, cacheCapacity: 4, debounceInterval: .seconds(3))
        XCTAssertFalse(app.setActive(false))
        XCTAssertEqual(app.delivery(at: s(1), stateIsOwnPid: false).refresh, .none)
        XCTAssertEqual(app.delivery(at: s(2), stateIsOwnPid: false).refresh, .none)
        XCTAssertTrue(app.setActive(true))
        XCTAssertFalse(app.setActive(true))
    }

    func testLegacyIgnoresItsOwnPidOnlyInTheLegacyDesign() {
        var legacy = MainAppReaction(variant: .signalLegacy, cacheCapacity: 4, debounceInterval: .seconds(3))
        legacy.cache.store(1, version: 0)
        let ignored = legacy.delivery(at: s(1), stateIsOwnPid: true)
        XCTAssertFalse(ignored.acted)
        XCTAssertNil(ignored.evacuated)
        XCTAssertEqual(legacy.cache.count, 1)
        var current = MainAppReaction(variant: .signal, cacheCapacity: 4, debounceInterval: .seconds(3))
        XCTAssertTrue(current.delivery(at: s(1), stateIsOwnPid: true).acted)
        var ours = MainAppReaction(variant: .changeLog, cacheCapacity: 4, debounceInterval: .seconds(3))
        ours.cache.store(1, version: 0)
        XCTAssertNil(ours.delivery(at: s(1), stateIsOwnPid: false).evacuated)  // the log evicts, not the notification
        XCTAssertEqual(ours.cache.count, 1)
    }
}
