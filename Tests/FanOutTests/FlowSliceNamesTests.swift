import XCTest

@testable import FanOut

/// `FlowSliceNames` spell a traced slice's name as the interpolation they replaced did.
final class FlowSliceNamesTests: XCTestCase {
    func testNamesAreTheInterpolatedOnes() {
        let ends: [FlowExecution.CallRecord.End] = [.succeeded, .failed, .timedOut, .cancelled, .lostHedge]
        var calls = FlowSliceNames.Calls()
        for flow in [0, 1, 9, 10, 99, 100, 12_345] {
            for kind in ServiceKind.allCases {
                for copy in [0, 1] {
                    for how in ends {
                        let name = calls.name(kind, hedge: copy > 0, how)(flow)
                        XCTAssertEqual(name, "\(kind.rawValue)\(copy > 0 ? " hedge" : "") flow \(flow) \(how.rawValue)")
                    }
                }
            }
            XCTAssertEqual(FlowSliceNames.tap(flow), "tap flow \(flow)")
            XCTAssertEqual(FlowSliceNames.tapWaitUpdate(flow), "flow \(flow) (tap, wait, ui-update)")
            XCTAssertEqual(FlowSliceNames.uiUpdate(flow), "ui-update flow \(flow)")
        }
    }

    /// A worker span's label, taken from its table by the kind's ordinal, is the interpolation it
    /// replaced, for every kind (control: a neighbouring slot is another kind's label).
    func testWorkerLabelsAreTheInterpolatedOnes() {
        for kind in ServiceKind.allCases {
            XCTAssertEqual(FlowExecution.ThreadSpan.Labels.handler[kind.ordinal].string, "\(kind.rawValue) handler")
            XCTAssertEqual(FlowExecution.ThreadSpan.Labels.blockedOperation[kind.ordinal].string, "operation \(kind.rawValue) (blocked)")
        }
        XCTAssertNotEqual(FlowExecution.ThreadSpan.Labels.handler[ServiceKind.movie.ordinal].string, "movies handler")
    }

    /// Control: the comparison sees a wrong part (each cached name has its own slot).
    func testTheComparisonSeesAWrongName() {
        var calls = FlowSliceNames.Calls()
        XCTAssertNotEqual(calls.name(.movie, hedge: false, .failed)(3), calls.name(.movies, hedge: false, .failed)(3))
        XCTAssertNotEqual(calls.name(.movie, hedge: true, .failed)(3), calls.name(.movie, hedge: false, .failed)(3))
        XCTAssertNotEqual(FlowSliceNames.tap(120), "tap flow 12")
    }
}
