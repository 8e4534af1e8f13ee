import Foundation
import Measurement
import Records
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

/// `WakeOnce` on a real clock, for the live runner: asks to be woken at clock reading 0 (already
/// past), and clears the request when woken only if `Reply.answers`.
private struct WakeOnceLive<Reply: WakeReply>: TimingClient {
    static var kind: ClientKind { .timeout }
    let clock: SystemClock
    var deadline: Int64? = 0
    init(clock: SystemClock, parameters: ClientParameters) { self.clock = clock }
    static func workload(_ plan: WorkloadPlan) -> [Timed<Int>] { [] }
    mutating func handle(_ event: Int, trueTime: Int64) {}
    var wakeDeadline: Int64? { deadline }
    mutating func wake(trueTime: Int64) {
        if Reply.answers { deadline = nil }
    }
    func observations(_ context: ScoringContext) -> [Observation] { [] }
}

private protocol WakeReply { static var answers: Bool { get } }
private enum Answers: WakeReply { static var answers: Bool { true } }
private enum Ignores: WakeReply { static var answers: Bool { false } }

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

    /// Live, the runner checks the same rule at every poll: a client woken over 1,000 times in a
    /// row without moving its request breaks it; answering the first wake-up (the control) does not.
    func testALiveClientThatNeverAnswersItsWakeFails() throws {
        func poll<Reply: WakeReply>(_ reply: Reply.Type) -> ContractViolation? {
            let plan = WorkloadPlan(windows: [0..<1_000_000_000], seed: 1, parameters: .live)
            let runner = LiveClientRunner(WakeOnceLive<Reply>.self, source: .monotonic, plan: plan)
            for ms in 0..<1_000 { runner.poll(trueTime: Int64(ms) * 1_000_000) }
            return runner.violation
        }
        let v = try XCTUnwrap(poll(Ignores.self))
        XCTAssertEqual(v.rule, TimingClientContract.answersItsWakes)
        XCTAssertTrue(v.event.hasPrefix("timeout on monotonic, true time 0.5 s: woken 1001 times in a row"), v.event)
        XCTAssertNil(poll(Answers.self))
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: TimingClientContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(TimingClientContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
