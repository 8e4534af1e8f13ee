import Foundation
import Measurement
import Records
import XCTest

/// What a stranger using the framework (`suite-fixture`, a user's executable on `BenchSuite`) sees
/// besides isolation: what already exists (`--list --verbose`), which package their results came
/// from, an origin on every row, and a determinism failure reported whole with the rest written.
final class SuiteStrangerTests: XCTestCase {
    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "suite-stranger-e2e-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func document(_ folder: String, _ workload: String) throws -> RunDocument {
        try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(workload).json")))
    }

    /// Every role's built-in variants list their parameters under `--verbose`, and only then.
    func testListVerboseShowsEveryBuiltInVariantsParametersForEveryRole() throws {
        for workload in ["throttle", "atomics", "cache", "readiness", "group", "lifecycle"] {
            let plain = try ExecutableRunner.run("suite-fixture", [workload, "--list"])
            let verbose = try ExecutableRunner.run("suite-fixture", [workload, "--list", "--verbose"])
            XCTAssertEqual(verbose.status, 0, verbose.stderr)
            let lines = verbose.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0.hasPrefix("variants") }) else {
                XCTFail("\(workload): no variants section: \(verbose.stdout)")
                continue
            }
            // Each variant line (two spaces, a name) is followed by at least one parameter line.
            var variant: String?
            var details = 0
            var checked = 0
            for line in lines[(start + 1)...] {
                if line.hasPrefix("      ") {
                    details += 1
                } else {
                    if let variant {
                        XCTAssertGreaterThan(details, 0, "\(workload) \(variant) lists no parameter")
                        checked += 1
                    }
                    guard line.hasPrefix("  ") else { break }
                    variant = line.split(separator: " ").first.map(String.init)
                    details = 0
                }
            }
            XCTAssertGreaterThan(checked, 2, "\(workload): \(verbose.stdout)")
            XCTAssertFalse(plain.stdout.contains("\n      "), "\(workload): parameters only with --verbose")
        }
        let misplaced = try ExecutableRunner.run("suite-fixture", ["group", "--verbose", "--quick"])
        XCTAssertEqual(misplaced.status, 64)
        XCTAssertTrue(misplaced.stderr.contains("--verbose applies to --list only"), misplaced.stderr)
    }

    /// A user's shape identical to a built-in one is pointed out: in `--list`, and in one note when
    /// it runs beside it; a shape the suite does not have (the fixture's `hedged-notify`) is not.
    func testAUserVariantIdenticalToABuiltInIsPointedOut() throws {
        let twin = ["SUITE_FIXTURE_TWIN": "1"]
        let list = try ExecutableRunner.run("suite-fixture", ["group", "--list"], environment: twin)
        XCTAssertEqual(list.status, 0, list.stderr)
        let line = list.stdout.split(separator: "\n").first { $0.hasPrefix("  my-first-shape ") } ?? ""
        XCTAssertTrue(line.contains("(same parameters as 'hedged')"), String(line))
        let notify = list.stdout.split(separator: "\n").first { $0.hasPrefix("  hedged-notify ") } ?? ""
        XCTAssertFalse(notify.isEmpty || notify.contains("same parameters"), "the control: \(notify)")
        let run = try ExecutableRunner.run(
            "suite-fixture",
            ["group", "--quick", "--variant", "my-first-shape,hedged", "--scenario", "login", "--output", temporaryFolder()],
            environment: twin
        )
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("note: variant 'my-first-shape' has the same parameters as 'hedged' (ours)"), run.stderr)
        // A note names only variants that ran: without `hedged` in the run there is nothing to compare.
        let alone = try ExecutableRunner.run(
            "suite-fixture",
            ["group", "--quick", "--variant", "my-first-shape", "--scenario", "login", "--output", temporaryFolder()],
            environment: twin
        )
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertFalse(alone.stderr.contains("same parameters"), alone.stderr)
        let plain = try ExecutableRunner.run(
            "suite-fixture",
            ["group", "--quick", "--variant", "hedged-notify", "--scenario", "login", "--output", temporaryFolder()]
        )
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.stderr.contains("same parameters"), plain.stderr)
    }

    /// A variant that fails `--check-determinism` fails its item: one whole line on stderr naming
    /// the variant, the metric and both values (it was cut off at 200 characters), and every other
    /// item written (nothing was).
    func testADeterminismFailureFailsItsItemInOneWholeLineAndTheRestIsWritten() throws {
        let output = temporaryFolder()
        let result = try ExecutableRunner.run(
            "suite-fixture",
            [
                "throttle", "--quick", "--scenario", "steady", "--variant", "reads-a-global,signal-adaptive", "--check-determinism",
                "--quiet", "--output", output,
            ]
        )
        XCTAssertEqual(result.status, 70, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        let line = String(lines.first ?? "")
        XCTAssertFalse(line.hasSuffix("…"), "the line is cut: \(line)")
        XCTAssertTrue(line.contains("reads-a-global") && line.contains(" was ") && line.contains(", then "), line)
        XCTAssertTrue(line.contains("--check-determinism"), line)
        let d = try document(output, "throttle")
        XCTAssertFalse(d.complete)
        XCTAssertTrue(d.notes.first?.hasPrefix("FAILED: steady reads-a-global") == true, "\(d.notes)")
        XCTAssertTrue(d.records.contains { $0.variant == "signal-adaptive" }, "the rest of the matrix is written")
        XCTAssertFalse(d.records.contains { $0.variant == "reads-a-global" })
    }

    /// A user's executable records its own package (name, and commit when it is a checkout)
    /// beside PatternBench's commit; PatternBench's own tools record none.
    func testResultsNameTheUsersPackageBesidePatternBenchsCommit() throws {
        let user = temporaryFolder()
        let result = try ExecutableRunner.run(
            "suite-fixture",
            ["throttle", "--quick", "--scenario", "steady", "--variant", "every-third", "--quiet", "--output", user]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        let package = try XCTUnwrap(try document(user, "throttle").metadata.userPackage, "no user_package in the metadata")
        // suite-fixture is built in PatternBench's own package: its folder holds this test's source.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertEqual(package.name, "PatternBench")
        XCTAssertEqual(URL(fileURLWithPath: package.path).resolvingSymlinksInPath(), root.resolvingSymlinksInPath())
        let head = try ExecutableRunner.run("git", ["-C", root.path, "rev-parse", "HEAD"], directory: URL(fileURLWithPath: "/usr/bin"))
        if head.status == 0 {
            XCTAssertEqual(package.gitCommit, head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            XCTAssertNotNil(package.gitDirty)
        }
        let raw = try String(contentsOfFile: user + "/throttle.json", encoding: .utf8)
        XCTAssertTrue(raw.contains("\"user_package\""), "the JSON key is user_package")

        let own = temporaryFolder()
        let builtIn = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--scenario", "steady", "--variant", "immediate", "--quiet", "--output", own]
        )
        XCTAssertEqual(builtIn.status, 0, builtIn.stderr)
        XCTAssertNil(try document(own, "throttle").metadata.userPackage, "bench-throttle is PatternBench's own tool")
    }

    /// Harness rows (here bench-readiness's live demonstration, variant `-`) carry an origin like
    /// every other row: `reference` (they had an empty one, which results/README.md does not allow).
    func testNoRowHasAnEmptyOriginHarnessRowsToo() throws {
        let output = temporaryFolder()
        let result = try ExecutableRunner.run(
            "bench-readiness",
            ["--mode", "live", "--scenario", "concurrent-first-use", "--quick", "--quiet", "--output", output]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        let d = try document(output, "readiness")
        let harness = d.records.filter { $0.variant == "-" }
        XCTAssertFalse(harness.isEmpty, "the demonstration wrote harness rows")
        XCTAssertEqual(Set(harness.map(\.origin)), ["reference"])
        let allowed = Set(VariantOrigin.allCases.map(\.rawValue))
        XCTAssertTrue(d.records.allSatisfy { allowed.contains($0.origin) }, "\(Set(d.records.map(\.origin)))")
        let csv = try String(contentsOfFile: output + "/readiness.csv", encoding: .utf8)
        XCTAssertFalse(csv.contains(",-,,"), "an empty origin in the CSV")
    }
}
