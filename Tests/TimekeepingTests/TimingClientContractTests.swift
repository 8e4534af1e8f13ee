import Foundation
import Measurement
import XCTest

@testable import Timekeeping

/// Asks to be woken 1 s into the run; `answers` clears the request when woken, else it asks for
/// the same wake-up again forever.
private struct WakeOnce: TimingClient {
    static var kind: ClientKind { .timeout }
    var answers = true
    let clock: SimulatedClock
    var deadline: Int64? = 1_000_000_000
    var wakes = 0
    init(clock: SimulatedClock, parameters: ClientParameters) { self.clock = clock }
    static func workload(_ plan: WorkloadPlan) -> [Timed<Int>] { [] }
    mutating func handle(_ event: Int, trueTime: Int64) {}
    var wakeDeadline: Int64? { deadline }
    mutating func wake(trueTime: Int64) {
        wakes += 1
        if answers { deadline = nil }
    }
    func observations(_ context: ScoringContext) -> [Observation] { [] }
}

/// A client that never answers its wake-up fails the run with the rule, instead of having it cut
/// short without a word; the same client answering it (the control) runs to the end.
final class TimingClientContractTests: XCTestCase {
    private func drive(answers: Bool) -> (violation: ContractViolation?, wakes: Int) {
        let schedule = ClockSchedule(events: [])
        let now = VirtualNow()
        var client = WakeOnce(clock: SimulatedClock(.monotonic, schedule: schedule, now: now), parameters: .sim)
        client.answers = answers
        let violation = SimRunner.drive(&client, workload: [], schedule: schedule, source: .monotonic, now: now, horizon: 1_000_000_000_000)
        return (violation, client.wakes)
    }

    func testAClientThatNeverAnswersItsWakeFails() throws {
        let stuck = drive(answers: false)
        let v = try XCTUnwrap(stuck.violation)
        XCTAssertEqual(v.rule, TimingClientContract.answersItsWakes)
        XCTAssertTrue(v.event.hasSuffix("woken 100001 times in a row without moving its request"), v.event)
        let control = drive(answers: true)
        XCTAssertNil(control.violation)
        XCTAssertEqual(control.wakes, 1)
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: TimingClientContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(TimingClientContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
