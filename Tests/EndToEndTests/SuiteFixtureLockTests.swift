import Foundation
import Records
import XCTest

/// bench-atomics' open role end to end: `suite-fixture atomics` with a user's lock and whole atomic
/// wrapper that behave, a lock that traps and a wrapper that loses updates.
final class SuiteFixtureLockTests: XCTestCase {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run("suite-fixture", ["atomics"] + arguments, environment: environment)
    }

    func document(_ folder: String) throws -> RunDocument {
        try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: folder + "/atomics.json")))
    }

    /// Short live runs: the tests check what flows through, never how fast.
    let short = ["--quick", "--seeds", "1", "--duration", "0.01", "--warmup", "0", "--probe-duration", "0", "--cs-work", "0", "--quiet"]

    /// A user's lock and wrapper run live through the same harness as the suite's: the same
    /// metrics, labelled `user`, with the lost-update check and the ratios to the references
    /// measured in the same run (the user's items are separate child processes).
    func testAUserLockAndWrapperRunLiveLabelledUserWithTheSameMetrics() throws {
        let output = try temporaryFolder("suite-fixture-locks").path
        let result = try run(
            short + [
                "--variant", "fixture-lock,fixture-wrapper,pthread-mutex,atomic,c-pthread-mutex", "--scenario", "increment,read-mostly",
                "--threads", "1,2", "--output", output,
            ]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        let d = try document(output)
        XCTAssertTrue(d.complete)
        XCTAssertEqual(d.plannedItems, 12, "per cell: one item for the suite's variants and one per user variant")
        for variant in ["fixture-lock", "fixture-wrapper"] {
            let rows = d.records.filter { $0.variant == variant }
            XCTAssertEqual(Set(rows.map(\.origin)), ["user"], variant)
            XCTAssertEqual(Set(rows.map(\.mode)), ["live"], variant)
            let metrics = Set(rows.map(\.metric))
            let suiteMetrics = Set(d.records.filter { $0.variant == "pthread-mutex" }.map(\.metric))
            XCTAssertEqual(metrics, suiteMetrics, "\(variant) gets every metric pthread-mutex gets")
            XCTAssertTrue(
                metrics.isSuperset(of: ["ns_per_op", "jain_fairness", "lost_updates", "ratio_to_c", "ratio_to_atomic"]),
                "\(metrics)"
            )
            XCTAssertEqual(rows.filter { $0.metric == "lost_updates" }.map(\.value).max(), 0, variant)
            XCTAssertGreaterThan(rows.first { $0.metric == "operations" }?.value ?? 0, 0)
        }
        XCTAssertEqual(Set(d.records.filter { $0.variant == "pthread-mutex" }.map(\.origin)), ["platform"])
        XCTAssertEqual(Set(d.records.filter { $0.variant == "c-pthread-mutex" }.map(\.origin)), ["reference"])
    }

    /// The lock contract holds a user's wrapper to the same invariant: one whose update is two
    /// critical sections lets two update bodies run at once, so its item fails before it is
    /// measured (exit 70), with no row to rank.
    func testAUserWrapperThatLosesUpdatesFailsTheRun() throws {
        let output = try temporaryFolder("suite-fixture-locks").path
        let result = try run(
            short + ["--variant", "loses-updates", "--scenario", "increment", "--threads", "8", "--duration", "0.2", "--output", output]
        )
        XCTAssertEqual(result.status, 70, result.stderr)
        XCTAssertTrue(result.stderr.contains("loses-updates") && result.stderr.contains("broke the lock contract"), result.stderr)
        XCTAssertFalse(try document(output).records.contains { $0.variant == "loses-updates" })
    }

    /// A user's lock that traps fails its own items, named, and every other item is measured and
    /// written; the parent exits 70 rather than trapping.
    func testATrappingUserLockFailsItsItemsAndTheRestIsWritten() throws {
        let output = try temporaryFolder("suite-fixture-locks").path
        let result = try run(
            short + [
                "--variant", "pthread-mutex,traps-lock", "--scenario", "increment", "--threads", "1,2", "--duration", "0.05", "--output",
                output,
            ]
        )
        XCTAssertEqual(result.reason, .exit, "the parent exits, it does not trap")
        XCTAssertEqual(result.status, 70, result.stderr)
        XCTAssertTrue(result.stderr.contains("traps-lock") && result.stderr.contains("trapped"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Precondition failed"), "the trap's own message: \(result.stderr)")
        let d = try document(output)
        XCTAssertFalse(d.complete)
        XCTAssertEqual(d.plannedItems, 4)
        XCTAssertEqual(d.completedItems, 2)
        XCTAssertTrue(d.notes.contains { $0.hasPrefix("FAILED: increment t=1 traps-lock") }, "\(d.notes)")
        XCTAssertEqual(
            Set(d.records.filter { $0.variant == "pthread-mutex" && $0.metric == "ns_per_op" }.map { $0.factors["threads"] }),
            ["1", "2"]
        )
        XCTAssertFalse(d.records.contains { $0.variant == "traps-lock" })
        let csv = try String(contentsOfFile: output + "/atomics.csv", encoding: .utf8)
        XCTAssertTrue(csv.contains(",pthread-mutex,platform,live,"), "the CSV is written too")
    }

    func testADuplicateOrReservedLockNameIsRefusedAtStartUp() throws {
        let duplicate = try run(["--list"], environment: ["SUITE_FIXTURE_DUPLICATE_LOCK": "1"])
        XCTAssertEqual(duplicate.status, 64)
        XCTAssertEqual(duplicate.stderr.split(separator: "\n").count, 1, duplicate.stderr)
        XCTAssertTrue(duplicate.stderr.contains("'pthread-mutex'") && duplicate.stderr.contains("already registered"), duplicate.stderr)
        let reserved = try run(["--list"], environment: ["SUITE_FIXTURE_RESERVED_LOCK": "1"])
        XCTAssertEqual(reserved.status, 64)
        XCTAssertTrue(reserved.stderr.contains("'harness'") && reserved.stderr.contains("reserved"), reserved.stderr)
    }

    func testListLabelsTheUserLocksAndTheSuitesOrigins() throws {
        let result = try run(["--list"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("[user] NSLock behind the role"), result.stdout)
        for label in ["[platform] pthread_mutex_t", "[signal] Signal's atomics", "[reference] C reference"] {
            XCTAssertTrue(result.stdout.contains(label), label)
        }
    }

    /// The documented smoke run (`--quick --threads 1,2`) catches a user's lock that does not
    /// exclude, even at one thread: its items fail with the lock contract's line, exit 70, and the
    /// other variants' rows are written. The control: the same run with a lock that excludes passes.
    /// Two work amounts, as `--quick` has: the failed items of cells that differ only by the work
    /// are told apart.
    func testTheSmokeRunCatchesALockWithoutMutualExclusion() throws {
        let output = try temporaryFolder("suite-fixture-no-exclusion").path
        var args = short + ["--scenario", "increment", "--threads", "1,2"]
        args[try XCTUnwrap(args.firstIndex(of: "--cs-work")) + 1] = "0,50ns"
        let result = try run(args + ["--variant", "no-exclusion-lock,pthread-mutex", "--output", output])
        XCTAssertEqual(result.status, 70, result.stderr)
        XCTAssertTrue(result.stderr.contains("broke the lock contract"), result.stderr)
        let d = try document(output)
        guard case .array(let failed) = d.metadata.parameters["failed_items"] else { return XCTFail("no failed_items") }
        let labels = failed.compactMap { item -> String? in
            guard case .object(let fields) = item, case .string(let label) = fields["item"] else { return nil }
            return label
        }
        XCTAssertEqual(
            labels.sorted(),
            [
                "increment t=1 cs=50ns no-exclusion-lock", "increment t=1 no-exclusion-lock", "increment t=2 cs=50ns no-exclusion-lock",
                "increment t=2 no-exclusion-lock",
            ]
        )
        XCTAssertFalse(d.records.contains { $0.variant == "no-exclusion-lock" })
        XCTAssertTrue(d.records.contains { $0.variant == "pthread-mutex" })

        let control = try run(
            args + ["--variant", "fixture-lock,pthread-mutex", "--output", try temporaryFolder("suite-fixture-exclusion").path]
        )
        XCTAssertEqual(control.status, 0, control.stderr)
    }
}
