import XCTest

@testable import FanOut

/// `FlowSliceName` spells a traced slice's name as the interpolation it replaced did.
final class FlowSliceNameTests: XCTestCase {
    func testNamesAreTheInterpolatedOnes() {
        for flow in [0, 1, 9, 10, 99, 100, 12_345, Int.max] {
            for kind in ServiceKind.allCases {
                for copy in [0, 1] {
                    let made = FlowSliceName.make(kind.rawValue, copy > 0 ? " hedge flow " : " flow ", flow: flow, " ", "succeeded")
                    XCTAssertEqual(made, "\(kind.rawValue)\(copy > 0 ? " hedge" : "") flow \(flow) succeeded")
                }
            }
            XCTAssertEqual(FlowSliceName.make("tap flow ", flow: flow), "tap flow \(flow)")  // a small string
            XCTAssertEqual(FlowSliceName.make("flow ", flow: flow, " (tap, wait, ui-update)"), "flow \(flow) (tap, wait, ui-update)")
        }
        XCTAssertEqual(FlowSliceName.make("flow ", flow: -3, "!"), "flow -3!")
        XCTAssertEqual(FlowSliceName.make("é ", flow: 7, " ü"), "é 7 ü")
    }

    /// Control: the comparison above sees a digit or a part out of place.
    func testTheComparisonSeesAWrongName() {
        XCTAssertNotEqual(FlowSliceName.make("tap flow ", flow: 120), "tap flow 12")
        XCTAssertNotEqual(FlowSliceName.make("flow ", flow: 5, " a", "b"), "flow 5 b a")
    }
}
