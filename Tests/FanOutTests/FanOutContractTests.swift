import Foundation
import Measurement
import Simulation
import XCTest

@testable import FanOut

/// `FanOutContract` fails a call completed twice, a call sent and never completed and a flow
/// finished twice or never; the records of every built-in shape's runs (the control) pass.
final class FanOutContractTests: XCTestCase {
    private func call(_ slot: Int, copy: Int = 0, at ms: Int64) -> FlowExecution.CallRecord {
        FlowExecution.CallRecord(
            kind: .movie,
            slot: slot,
            copy: copy,
            start: .zero,
            end: SimInstant(nanoseconds: ms * 1_000_000),
            how: .succeeded
        )
    }

    func testACallCompletedTwiceFails() throws {
        let calls = [(0, call(3, at: 5)), (0, call(3, copy: 1, at: 6)), (0, call(4, at: 7)), (0, call(3, at: 9))]
        let v = try XCTUnwrap(FanOutContract.violation(calls: calls.map { ($0.0, $0.1) }, finishes: [1], sent: nil))
        XCTAssertEqual(v.rule, FanOutContract.completesEveryCallOnce)
        XCTAssertEqual(v.event, "flow 0: the movie call's copy 0 completed again at 0.009s")
        XCTAssertNil(FanOutContract.violation(calls: calls.dropLast().map { ($0.0, $0.1) }, finishes: [1], sent: nil), "control")
    }

    func testACallSentAndNeverCompletedFails() throws {
        let calls = [(0, call(3, at: 5)), (1, call(3, at: 6))].map { ($0.0, $0.1) }
        let v = try XCTUnwrap(FanOutContract.violation(calls: calls, finishes: [1, 1], sent: 3))
        XCTAssertEqual(v.event, "the end of the run: 3 call copies sent, 2 completions")
        XCTAssertNil(FanOutContract.violation(calls: calls, finishes: [1, 1], sent: 2), "control")
    }

    func testAFlowFinishedTwiceOrNeverFails() throws {
        for finishes in [[1, 2], [0, 1]] {
            let v = try XCTUnwrap(FanOutContract.violation(calls: [], finishes: finishes, sent: nil))
            XCTAssertEqual(v.rule, FanOutContract.finishesEveryFlowOnce)
        }
        XCTAssertNil(FanOutContract.violation(calls: [], finishes: [1, 1], sent: nil), "control")
    }

    /// A live handler that fires twice is counted twice: the recorder's own check fails it.
    func testTheLiveRecorderSeesAHandlerFiredTwice() throws {
        let recorder = LiveRecorder(flows: 1, clock: SystemMonotonicClock())
        let spec = CallSpec(kind: .profile, slot: 0)
        recorder.send()
        recorder.call(0, spec, copy: 0, start: .zero, how: .succeeded)
        recorder.finished(0, arrival: .zero, failed: false)
        XCTAssertNil(recorder.contractViolation(complete: true), "control: once")
        recorder.call(0, spec, copy: 0, start: .zero, how: .succeeded)
        XCTAssertEqual(recorder.contractViolation(complete: true)?.rule, FanOutContract.completesEveryCallOnce)
    }

    func testEveryBuiltInShapeKeepsTheContract() {
        for v in FanOutVariant.builtIn {
            for s in FanOutScenario.catalogue {
                let r = FanOutSimulation.run(FanOutSimulation.Request(shape: v.shape, scenario: s, seed: 1, flows: 40, recordTrace: false))
                XCTAssertNil(r.violation, "\(v.info.name) \(s.name)")
            }
        }
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: FanOutContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(FanOutContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
