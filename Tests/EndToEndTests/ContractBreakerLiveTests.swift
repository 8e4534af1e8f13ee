import Foundation
import Records
import Testing

/// A live form that breaks `ReadinessContract` in the re-entry probes (a task never run, a task
/// run off the thread that called `setAppIsReady`) fails its item, in live mode, with one line
/// naming the rule and the task; the twin without the fault (the control) is counted as before.
@Suite struct ContractBreakerLiveTests {
    @Test(arguments: [
        ("drops-reentrant-tasks", "every registered block starts exactly once", "never started before setAppIsReady returned"),
        ("runs-tasks-off-main", "will, did and ui blocks run on the main executor", "ran off the thread that called setAppIsReady"),
    ])
    func aProbeThatBreaksTheContractFailsItsItem(_ breaker: String, _ rule: String, _ event: String) async throws {
        try await onThread {
            let out = try ExecutableRunner.temporaryDirectory("contracts-live-\(breaker)")
            defer { try? FileManager.default.removeItem(at: out) }
            func run(_ variants: String) throws -> (status: Int32, stderr: String, document: RunDocument) {
                let r = try ExecutableRunner.run(
                    "suite-fixture",
                    [
                        "readiness", "--mode", "live", "--scenario", "reentrant-tasks", "--variant", variants, "--quiet", "--output",
                        out.path,
                    ],
                    environment: ["SUITE_FIXTURE_CONTRACTS": "1"]
                )
                let document = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("readiness.json")))
                return (r.status, r.stderr, document)
            }
            let broken = try run("\(breaker),keeps-reentrant-tasks")
            #expect(broken.status == 70, "\(broken.stderr)")
            #expect(broken.stderr.split(separator: "\n").count == 1, "one line: \(broken.stderr)")
            #expect(broken.stderr.contains(breaker) && broken.stderr.contains(rule) && broken.stderr.contains(event), "\(broken.stderr)")
            guard case .array(let items)? = broken.document.metadata.parameters["failed_items"] else {
                Issue.record("no failed_items: \(broken.stderr)")
                return
            }
            #expect(items.count == 1)
            #expect(!broken.document.records.contains { $0.variant == breaker })
            #expect(broken.document.records.contains { $0.variant == "keeps-reentrant-tasks" && $0.metric == "probes_completed" })
            let control = try run("keeps-reentrant-tasks")
            #expect(control.status == 0, "the twin keeps the contract: \(control.stderr)")
            #expect(control.document.metadata.parameters["failed_items"] == nil)
        }
    }
}
