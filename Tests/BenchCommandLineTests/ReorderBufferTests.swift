import XCTest

@testable import BenchCommandLine

/// `ReorderBuffer`: what arrives out of order is handed on in order, an item that failed passes its
/// place, and a position that never arrives holds back the rest until the end of the run.
final class ReorderBufferTests: XCTestCase {
    private func popAll(_ buffer: inout ReorderBuffer<String>, skippingGaps: Bool = false) -> [String] {
        var out: [String] = []
        while let (position, arrival) = buffer.pop(skippingGaps: skippingGaps) {
            switch arrival {
            case .value(let v): out.append("\(position):\(v)")
            case .nothing: out.append("\(position):-")
            }
        }
        return out
    }

    func testOutOfOrderArrivalsAreHandedOnInOrder() {
        var buffer = ReorderBuffer<String>(count: 4)
        buffer.arrive(.value("c"), at: 2)
        buffer.arrive(.value("b"), at: 1)
        XCTAssertEqual(popAll(&buffer), [], "position 0 has not arrived: nothing is handed on")
        buffer.arrive(.nothing, at: 0)
        XCTAssertEqual(popAll(&buffer), ["0:-", "1:b", "2:c"])
        buffer.arrive(.value("d"), at: 3)
        XCTAssertEqual(popAll(&buffer), ["3:d"])
        XCTAssertEqual(buffer.next, 4)
    }

    /// A position that never arrives (an interrupt kept its item from starting) holds back the
    /// rest; at the end of the run `skippingGaps` passes over it, and only there.
    func testAGapHoldsBackTheRestUntilTheEnd() {
        var buffer = ReorderBuffer<String>(count: 5)
        buffer.arrive(.value("a"), at: 0)
        buffer.arrive(.value("c"), at: 2)
        buffer.arrive(.value("e"), at: 4)
        XCTAssertEqual(popAll(&buffer), ["0:a"])
        XCTAssertEqual(popAll(&buffer, skippingGaps: true), ["2:c", "4:e"])
    }
}
