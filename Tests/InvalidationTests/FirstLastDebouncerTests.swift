import Simulation
import XCTest

@testable import Invalidation

/// Signal's DebouncedEvent firstLast, replayed on its own documented timeline.
final class FirstLastDebouncerTests: XCTestCase {
    func s(_ x: Int) -> SimInstant { SimInstant(nanoseconds: Int64(x) * 1_000_000_000) }

    /// N = 5: A@1 fires; B@2 enqueues; C@4 ignored; fire@6; D@8 enqueues; E@9 ignored; fire@11;
    /// F@20 fires at once (signal-reference.md section 2).
    func testSignalsDocumentedTimeline() {
        var d = FirstLastDebouncer(interval: .seconds(5))
        var fires: [Int] = []
        func request(_ t: Int) -> FirstLastDebouncer.Decision {
            let decision = d.request(at: s(t))
            if decision == .fireNow {
                d.fired(at: s(t))
                fires.append(t)
            }
            return decision
        }
        XCTAssertEqual(request(1), .fireNow)
        XCTAssertEqual(request(2), .scheduled(s(6)))
        XCTAssertEqual(request(4), .ignored)
        d.fired(at: s(6))
        fires.append(6)
        XCTAssertEqual(request(8), .scheduled(s(11)))
        XCTAssertEqual(request(9), .ignored)
        d.fired(at: s(11))
        fires.append(11)
        XCTAssertEqual(request(20), .fireNow)
        XCTAssertEqual(fires, [1, 6, 11, 20])
    }

    /// The timer is never pushed back: a steady stream every second still fires every N.
    func testSteadyStreamNeverStarves() {
        var d = FirstLastDebouncer(interval: .seconds(3))
        var fires: [Int] = []
        var scheduled: Int?
        for t in 0...12 {
            if let at = scheduled, at <= t {
                d.fired(at: s(at))
                fires.append(at)
                scheduled = nil
            }
            switch d.request(at: s(t)) {
            case .fireNow:
                d.fired(at: s(t))
                fires.append(t)
            case .scheduled(let at): scheduled = Int(at.nanoseconds / 1_000_000_000)
            case .ignored: break
            }
        }
        XCTAssertEqual(fires, [0, 3, 6, 9, 12])
    }
}
