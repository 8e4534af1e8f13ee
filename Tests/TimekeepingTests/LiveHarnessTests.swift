import Foundation
import OptionalPackages
import XCTest

@testable import Timekeeping

final class LiveHarnessTests: XCTestCase {
    /// The timestamp-file lines that move the wall clock: total offset, plus the rate in a slew.
    func testFaketimeControlLines() {
        let changes = FaketimeControl.changes(for: [.step(at: 1.5, by: -1), .slew(at: 2, ppm: 100_000, for: 1), .step(at: 4, by: 3600)])
        XCTAssertEqual(
            changes.map(\.line),
            [
                "-1.000000000",
                "-1.000000000 x1.100000000",
                "-0.900000000",
                "+3599.100000000",
            ]
        )
        XCTAssertEqual(changes.map(\.at), [1.5, 2, 3, 4])
    }

    func testLiveEventsAreMovedAndUnfakeableOnesRefused() throws {
        let strobe = SkewScenario.named("strobe-50ms-500ms")!
        let mapped = try LivePlan.liveEvents(for: strobe, duration: 4, firstAt: 1.5)
        XCTAssertEqual(mapped.events.first?.at, 1.5)
        XCTAssertEqual(mapped.events.count, 5)
        XCTAssertEqual(mapped.dropped, strobe.events.count - 5)
        XCTAssertThrowsError(try LivePlan.liveEvents(for: SkewScenario.named("suspend-10min")!, duration: 4, firstAt: 1.5))
        XCTAssertThrowsError(try LivePlan.liveEvents(for: SkewScenario.named("drift-50ppm")!, duration: 4, firstAt: 1.5))
    }

    /// The shim compiles and exports the timerfd calls and its marker.
    func testTimerfdShimBuilds() throws {
        try require(.cCompiler)
        let path = try TimerfdShim.build()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return XCTFail("dlopen \(path): \(String(cString: dlerror()))")
        }
        defer { dlclose(handle) }
        for symbol in ["timerfd_create", "timerfd_settime", "timerfd_gettime", "patternbench_timerfd_shim_loaded"] {
            XCTAssertNotNil(dlsym(handle, symbol), symbol)
        }
        XCTAssertEqual(try TimerfdShim.build(), path, "cached by content hash")
    }
}
