import Foundation
import Records
import XCTest

/// A user's executable (`suite-fixture`, built on `BenchSuite`) with user variants that behave,
/// trap, hang or break determinism: what the framework promises a user, end to end.
final class SuiteFixtureTests: XCTestCase {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run("suite-fixture", arguments, environment: environment)
    }

    func document(_ folder: String) throws -> RunDocument {
        try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: folder + "/throttle.json")))
    }

    /// The user's variant runs in virtual time beside Signal's, labelled `user`, and `--jobs`
    /// changes nothing.
    func testAUserVariantRunsInSimLabelledUserAndJobsChangeNothing() throws {
        let jobs = ["1", "2"]
        let outputs = try jobs.map { _ in try temporaryFolder("suite-fixture-e2e").path }
        // The two runs side by side (`swift test` within 180 s).
        let values = try concurrently(jobs.indices.map { i in { try self.checkUserVariantRun(jobs: jobs[i], output: outputs[i]) } })
        XCTAssertFalse(values[0].isEmpty)
        XCTAssertEqual(values[0], values[1], "--jobs 1 and --jobs 2 must give identical results")
    }

    /// A run of `every-third` beside `signal-adaptive` with `jobs` into `output`, checked; its values.
    func checkUserVariantRun(jobs: String, output: String) throws -> [String] {
        let result = try run([
            "throttle", "--quick", "--variant", "every-third,signal-adaptive", "--jobs", jobs, "--quiet", "--output", output,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let d = try document(output)
        XCTAssertEqual(d.schemaVersion, RunDocument.currentSchemaVersion)
        XCTAssertEqual(Set(d.records.filter { $0.variant == "every-third" }.map(\.origin)), ["user"])
        XCTAssertEqual(Set(d.records.filter { $0.variant == "signal-adaptive" }.map(\.origin)), ["signal"])
        let csv = try String(contentsOfFile: output + "/throttle.csv", encoding: .utf8)
        XCTAssertTrue(csv.hasPrefix("run_id,workload,scenario,variant,origin,mode,"), csv.prefix(80) + "")
        return d.records.map { "\($0.scenario) \($0.variant) \($0.seed) \($0.metric) \($0.value)" }
    }

    /// A user variant's virtual-time items run in a child process; their results are
    /// bit-identical to the same items run in-process (`PATTERNBENCH_NO_ISOLATION=1`). The control:
    /// a variant that reads process-wide state does differ between the two, so the comparison can
    /// fail.
    func testAUserVariantsSimResultsAreBitIdenticalInAChildAndInProcess() throws {
        let cases = [("every-third", true), ("every-third", false), ("reads-a-global", true), ("reads-a-global", false)]
        let outputs = try cases.map { _ in try temporaryFolder("suite-fixture-e2e").path }
        func values(_ variant: String, isolated: Bool, output: String) throws -> [String] {
            let result = try run(
                ["throttle", "--quick", "--seeds", "3", "--variant", variant, "--jobs", "1", "--quiet", "--output", output],
                environment: ["PATTERNBENCH_NO_ISOLATION": isolated ? "" : "1"]
            )
            XCTAssertEqual(result.status, 0, result.stderr)
            return try document(output).records.map { "\($0.scenario) \($0.seed) \($0.metric) \($0.value.bitPattern)" }
        }
        // The four runs side by side, each into its own folder.
        let runs = try concurrently(cases.indices.map { i in { try values(cases[i].0, isolated: cases[i].1, output: outputs[i]) } })
        let child = runs[0]
        XCTAssertGreaterThan(child.count, 50)
        XCTAssertEqual(child, runs[1], "a child process changed a virtual-time result")
        XCTAssertNotEqual(runs[2], runs[3], "control: process-wide state shows between one process per item and one for all")
    }

    /// Live, the user's policy runs on the real main loop — in a child process, so that a trap or
    /// a hang cannot take the run down — and comes back as ordinary live records.
    func testAUserVariantRunsLiveInAChildProcess() throws {
        let output = try temporaryFolder("suite-fixture-e2e").path
        let result = try run([
            "throttle", "--mode", "live", "--quick", "--scenario", "steady", "--variant", "every-third", "--duration", "0.5",
            "--quiet", "--output", output,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let d = try document(output)
        XCTAssertTrue(d.complete)
        let live = d.records.filter { $0.mode == "live" && $0.variant == "every-third" }
        XCTAssertFalse(live.isEmpty)
        XCTAssertEqual(Set(live.map(\.origin)), ["user"])
        XCTAssertGreaterThan(live.first { $0.metric == "commits" }?.value ?? 0, 0)
    }

    func testATrappingLiveUserVariantFailsItsItemAndTheRestIsWritten() throws {
        let output = try temporaryFolder("suite-fixture-e2e").path
        let result = try run([
            "throttle", "--mode", "live", "--quick", "--scenario", "steady", "--variant", "traps-on-tenth,immediate", "--rate", "200",
            "--duration", "0.5", "--quiet", "--output", output,
        ])
        XCTAssertEqual(result.reason, .exit, "the parent exits, it does not trap")
        XCTAssertEqual(result.status, 70)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("traps-on-tenth") && result.stderr.contains("trapped"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Precondition failed"), "the trap's own message: \(result.stderr)")
        let d = try document(output)
        XCTAssertFalse(d.complete)
        XCTAssertEqual(d.completedItems, 1)
        XCTAssertTrue(d.notes.first?.hasPrefix("FAILED: steady traps-on-tenth") == true, "\(d.notes)")
        XCTAssertTrue(d.records.contains { $0.variant == "immediate" && $0.mode == "live" }, "the rest of the matrix is written")
        XCTAssertFalse(d.records.contains { $0.variant == "traps-on-tenth" })
    }

    // A hanging live user variant is SuiteFixtureWatchdogTests (Swift Testing, side by side).

    /// `--check-determinism` catches a variant whose results depend on process-wide state, and
    /// passes a deterministic one.
    func testTheDeterminismCheckCatchesAVariantThatReadsAGlobal() throws {
        let bad = try run([
            "throttle", "--quick", "--scenario", "steady", "--variant", "reads-a-global", "--check-determinism", "--quiet", "--output",
            try temporaryFolder("suite-fixture-e2e").path,
        ])
        XCTAssertEqual(bad.status, 70, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--check-determinism") && bad.stderr.contains("reads-a-global"), bad.stderr)
        let good = try run([
            "throttle", "--quick", "--scenario", "steady", "--variant", "every-third,signal-adaptive", "--check-determinism", "--quiet",
            "--output", try temporaryFolder("suite-fixture-e2e").path,
        ])
        XCTAssertEqual(good.status, 0, good.stderr)
    }

    func testADuplicateVariantNameIsRefusedAtStartUp() throws {
        let result = try run(["throttle", "--list"], environment: ["SUITE_FIXTURE_DUPLICATE": "1"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("'signal-adaptive'") && result.stderr.contains("already registered"), result.stderr)
    }

    func testListLabelsEveryVariantWithItsOrigin() throws {
        let result = try run(["throttle", "--list"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("every-third") && result.stdout.contains("[user] publish every third commit"), result.stdout)
        XCTAssertTrue(result.stdout.contains("[signal]"), result.stdout)
        let unknown = try run(["throttle-not"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown workload"), unknown.stderr)
    }
}
