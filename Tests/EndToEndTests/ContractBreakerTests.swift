import Foundation
import Records
import Testing

/// A user's variant that runs to the end without a trap but breaks its role's contract fails its
/// items, is ranked nowhere, and leaves every other item's rows as a clean run writes them; in a
/// child process (the default for a user's variant) and in-process alike, with the same line.
///
/// suite-fixture's breakers (`SUITE_FIXTURE_CONTRACTS`) each have a twin that differs only by the
/// fault: the control, which runs in the same matrix and passes.
@Suite struct ContractBreakerTests {
    /// One rule: the workload, the scenario, the breaker, its twin, and the words of the rule.
    struct Case: Sendable, CustomStringConvertible {
        var workload: String
        var scenario: String
        var breaker: String
        var twin: String
        var suite: String  // a built-in variant beside them
        var rule: String
        var extra: [String] = []
        var description: String { "\(workload) \(breaker)" }
    }

    static let cases = [
        Case(
            workload: "cache",
            scenario: "zipf-0.9",
            breaker: "miscounting-cache",
            twin: "keeps-contract-cache",
            suite: "lru",
            rule: "0 ≤ count ≤ capacity"
        ),
        Case(
            workload: "cache",
            scenario: "zipf-0.9",
            breaker: "forgetful-cache",
            twin: "keeps-contract-cache",
            suite: "lru",
            rule: "a get right after a set of the same key",
            extra: ["--context", "main-app"]
        ),
        Case(
            workload: "throttle",
            scenario: "steady",
            breaker: "loses-tail",
            twin: "keeps-contract",
            suite: "signal-adaptive",
            rule: "every committed row is published"
        ),
        Case(
            workload: "throttle",
            scenario: "steady",
            breaker: "asks-negative-rows",
            twin: "asks-five-rows",
            suite: "signal-adaptive",
            rule: "rows > 0"
        ),
        Case(
            workload: "throttle",
            scenario: "steady",
            breaker: "timer-in-past",
            twin: "timer-ahead",
            suite: "signal-adaptive",
            rule: "not set in the past"
        ),
        Case(
            workload: "readiness",
            scenario: "main-app",
            breaker: "drops-early-blocks",
            twin: "keeps-early-blocks",
            suite: "signal",
            rule: "every registered block starts exactly once"
        ),
    ]

    struct Run: Sendable {
        var status: Int32
        var stderr: String
        var document: RunDocument
    }

    static func run(_ c: Case, variants: [String], isolation: Bool) async throws -> Run {
        try await onThread {
            let out = try ExecutableRunner.temporaryDirectory("contracts-\(c.breaker)")
            defer { try? FileManager.default.removeItem(at: out) }
            let args = [c.workload, "--quick", "--scenario", c.scenario, "--variant", variants.joined(separator: ","), "--quiet"] + c.extra
            let r = try ExecutableRunner.run(
                "suite-fixture",
                args + ["--output", out.path],
                environment: ["SUITE_FIXTURE_CONTRACTS": "1", "PATTERNBENCH_NO_ISOLATION": isolation ? "" : "1"]
            )
            let document = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("\(c.workload).json")))
            return Run(status: r.status, stderr: r.stderr, document: document)
        }
    }

    /// The rows of a document without the run's identity, for comparing two runs.
    static func rows(_ d: RunDocument) -> [ResultRecord] {
        d.records.map {
            var r = $0
            r.runID = ""
            return r
        }
    }

    @Test(arguments: cases)
    func aBrokenContractFailsTheItemInAChildAndInProcess(_ c: Case) async throws {
        async let child = Self.run(c, variants: [c.breaker, c.twin, c.suite], isolation: true)
        async let inProcess = Self.run(c, variants: [c.breaker, c.twin, c.suite], isolation: false)
        async let clean = Self.run(c, variants: [c.twin, c.suite], isolation: true)
        let (a, b, control) = try await (child, inProcess, clean)

        #expect(a.status == 70, "\(a.stderr)")
        #expect(a.stderr.split(separator: "\n").count == 1, "one line: \(a.stderr)")
        #expect(a.stderr.contains(c.breaker) && a.stderr.contains(c.rule), "\(a.stderr)")
        let failed = a.document.metadata.parameters["failed_items"]
        guard case .array(let items) = failed else {
            Issue.record("no failed_items: \(a.stderr)")
            return
        }
        #expect(!items.isEmpty)
        for case .object(let item) in items {
            #expect(item["item"].map { "\($0)".contains(c.breaker) } == true, "\(item)")
            #expect(item["reason"].map { "\($0)".contains("broke the") && "\($0)".contains(c.rule) } == true, "\(item)")
        }
        #expect(a.document.notes.first?.hasPrefix("FAILED: ") == true)
        // Every item of the breaker fails here (the matrix gives each a chance to break the
        // rule): none has a row, a summary or a place in a table.
        #expect(!a.document.records.contains { $0.variant == c.breaker })
        #expect(!a.document.summaries.contains { $0.variant == c.breaker })
        // The same failures, line for line, across the child-process boundary.
        #expect(b.status == 70, "\(b.stderr)")
        #expect(b.document.metadata.parameters["failed_items"] == failed, "in-process: \(b.stderr)")
        #expect(b.stderr == a.stderr)
        // Every other item's rows are a clean run's, and the twin (the control) is among them.
        let kept = Self.rows(a.document).filter { $0.variant != c.breaker }
        #expect(kept == Self.rows(control.document), "the other items' rows are a clean run's")
        #expect(control.status == 0, "the twin keeps the contract: \(control.stderr)")
        #expect(control.document.records.contains { $0.variant == c.twin })
        #expect(control.document.metadata.parameters["failed_items"] == nil)
    }
}
