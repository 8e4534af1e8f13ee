import ContractBreakers
import Foundation
import Measurement
import Simulation
import XCTest

@testable import Throttling

/// Each rule of `ThrottleContract` fails a policy that breaks it, in virtual time and in the live
/// loop (on a `TestClock`: the same `MainThreadMachine` checks both), naming the callback and its
/// time; the same policy without the fault (the control) passes, and so does every built-in.
final class ThrottleContractTests: XCTestCase {
    private let scenario = ThrottleScenario.catalogue.first { $0.name == "steady" }!.scaled(by: 0.2)

    private func violations(_ policy: ContractThrottler) -> (sim: ContractViolation?, live: ContractViolation?) {
        let trace = ThrottleExperiment.trace(for: scenario, seed: 1)
        let sim = ThrottleExperiment.simulate(policy, scenario: scenario, trace: trace)
        let live = LiveThrottleRun.runPreposted(policy, scenario: scenario, trace: trace, clock: TestClock())
        return (sim.violation, live.violation)
    }

    private func check(_ fault: ContractThrottler, _ control: ContractThrottler, _ rule: ContractRule, _ event: String) {
        let broken = violations(fault)
        XCTAssertEqual(broken.sim?.rule, rule)
        XCTAssertTrue(broken.sim?.event.hasPrefix(event) == true, broken.sim?.event ?? "none")
        XCTAssertEqual(broken.live?.rule, rule, "the live loop steps the same machine (its drain limit is shorter)")
        let kept = violations(control)
        XCTAssertNil(kept.sim, "control")
        XCTAssertNil(kept.live, "control")
    }

    func testLostRowsFail() {
        check(ContractThrottler(losesTail: true), ContractThrottler(), ThrottleContract.publishesEveryRow, "the end of the run at ")
    }

    func testAPartialPublishOfNoRowsFails() {
        check(
            ContractThrottler(partial: -5),
            ContractThrottler(partial: 5),
            ThrottleContract.asksForRows,
            "frameCompleted returned .upTo(rows: -5) at "
        )
        check(
            ContractThrottler(partial: 0),
            ContractThrottler(partial: 1),
            ThrottleContract.asksForRows,
            "frameCompleted returned .upTo(rows: 0) at "
        )
    }

    func testATimerInThePastFails() {
        check(
            ContractThrottler(timerOffset: .seconds(-1000)),
            ContractThrottler(timerOffset: .zero),
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
