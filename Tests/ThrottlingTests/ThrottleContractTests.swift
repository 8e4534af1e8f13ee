import Foundation
import Measurement
import Simulation
import XCTest

@testable import Throttling

/// Publishes every third commit and what has waited 100 ms when a frame completes; `losesTail`
/// stops after five commits; `partial` asks for `.upTo(rows:)`; `timerOffset` arms a timer on
/// each commit.
private struct Faulty: UpdateThrottler {
    var losesTail = false
    var partial: Int?
    var timerOffset: SimDuration?
    var seen = 0
    var publish: ThrottleDecision.Publish { partial.map { .upTo(rows: $0) } ?? .all }

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        if losesTail, seen > 5 { return .none }  // stops publishing: every later row is lost
        let timer = timerOffset.map { ThrottleDecision.Timer.fire(at: context.now + $0) } ?? .unchanged
        return ThrottleDecision(publish: seen % 3 == 0 ? publish : .nothing, timer: timer)
    }
    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision { ThrottleDecision(publish: publish) }
    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        guard !losesTail, context.pendingCommits > 0, let oldest = context.oldestPending, context.now - oldest > .milliseconds(100) else {
            return .none
        }
        return ThrottleDecision(publish: publish)
    }
}

/// Each rule of `ThrottleContract` fails a policy that breaks it, in virtual time and in the live
/// loop (on a `TestClock`: the same `MainThreadMachine` checks both), naming the callback and its
/// time; the same policy without the fault (the control) passes, and so does every built-in.
final class ThrottleContractTests: XCTestCase {
    private let scenario = ThrottleScenario.catalogue.first { $0.name == "steady" }!.scaled(by: 0.2)

    private func violations(_ policy: Faulty) -> (sim: ContractViolation?, live: ContractViolation?) {
        let trace = ThrottleExperiment.trace(for: scenario, seed: 1)
        let sim = ThrottleExperiment.simulate(policy, scenario: scenario, trace: trace)
        let live = LiveThrottleRun.runPreposted(policy, scenario: scenario, trace: trace, clock: TestClock())
        return (sim.violation, live.violation)
    }

    private func check(_ fault: Faulty, _ control: Faulty, _ rule: ContractRule, _ event: String) {
        let broken = violations(fault)
        XCTAssertEqual(broken.sim?.rule, rule)
        XCTAssertTrue(broken.sim?.event.hasPrefix(event) == true, broken.sim?.event ?? "none")
        XCTAssertEqual(broken.live?.rule, rule, "the live loop steps the same machine (its drain limit is shorter)")
        let kept = violations(control)
        XCTAssertNil(kept.sim, "control")
        XCTAssertNil(kept.live, "control")
    }

    func testLostRowsFail() {
        check(Faulty(losesTail: true), Faulty(), ThrottleContract.publishesEveryRow, "the end of the run at ")
    }

    func testAPartialPublishOfNoRowsFails() {
        check(Faulty(partial: -5), Faulty(partial: 5), ThrottleContract.asksForRows, "frameCompleted returned .upTo(rows: -5) at ")
        check(Faulty(partial: 0), Faulty(partial: 1), ThrottleContract.asksForRows, "frameCompleted returned .upTo(rows: 0) at ")
    }

    func testATimerInThePastFails() {
        check(
            Faulty(timerOffset: .seconds(-1000)),
            Faulty(timerOffset: .zero),
            ThrottleContract.timerNotInThePast,
            "commitArrived returned .fire(at: -"
        )
    }

    func testEveryBuiltInKeepsTheContract() {
        let trace = ThrottleExperiment.trace(for: scenario, seed: 2)
        for pipeline in ThrottlePipeline.allCases {
            var parameters = ThrottleParameters()
            parameters.pipeline = pipeline
            for variant in ThrottlerVariant.builtIn {
                let r = ThrottleExperiment.simulate(
                    policy: variant,
                    parameters: parameters,
                    scenario: scenario,
                    trace: trace
                )
                XCTAssertNil(r.violation, "\(variant.info.name) \(pipeline)")
            }
        }
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: ThrottleContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(ThrottleContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
