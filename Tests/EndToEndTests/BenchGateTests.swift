import Foundation
import Measurement
import Records
import Verdicts
import XCTest

/// The XCTest layer of the regression gate, and bench-gate's contract (verdicts and exit codes).
final class BenchGateTests: XCTestCase {
    static let packageRoot = WorkloadTool.packageRoot
    var thresholds: String { WorkloadTool.committedThresholds }

    /// results/thresholds.json cut to what a slice of the matrix runs: the gate refuses a
    /// threshold that selects no row of a workload it has, so a test that runs a
    /// slice gates it with that slice's claims, not with every claim of the suite.
    static func sliceThresholds(in dir: URL, keeping keep: ([String: Any]) -> Bool) throws -> String {
        let source = packageRoot.appendingPathComponent("results/thresholds.json")
        var file = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as! [String: Any]
        file["thresholds"] = (file["thresholds"] as! [[String: Any]]).filter(keep)
        let out = dir.appendingPathComponent("slice-thresholds.json")
        try JSONSerialization.data(withJSONObject: file).write(to: out)
        return out.path
    }

    /// The throttle thresholds of these scenarios (and of every scenario), and all the others.
    static func throttleSlice(_ scenarios: Set<String>, in dir: URL) throws -> String {
        try sliceThresholds(in: dir) { t in
            t["workload"] as? String != "throttle" || scenarios.contains(t["scenario"] as! String) || t["scenario"] as? String == "*"
        }
    }

    /// A throttle run with `extra` in `dir/name`: a copy of this test process's one run with these
    /// arguments (bit-identical whenever it is made), or a run of its own where `fresh`.
    func throttleRun(_ extra: [String] = [], in dir: URL, name: String, fresh: Bool = false) throws -> URL {
        let out = dir.appendingPathComponent(name)
        guard fresh else {
            try SharedRuns.copy(SharedRuns.run("bench-throttle", extra), into: out)
            return out
        }
        let r = try ExecutableRunner.run("bench-throttle", ["--quiet", "--output", out.path] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    /// A fresh folder with a short steady throttle run in it (`run`), and the thresholds of that slice.
    func steadyRun() throws -> (dir: URL, run: URL, thresholds: String) {
        let dir = try temporaryFolder("gate")
        return (
            dir, try throttleRun(["--scenario", "steady", "--quick"], in: dir, name: "run"), try Self.throttleSlice(["steady"], in: dir)
        )
    }

    /// The XCTest layer of the gate: short deterministic runs of every registered workload, and every
    /// deterministic threshold holds — none fails and none is skipped for want of data.
    func testDeterministicThresholdsOfAllWorkloadsHold() throws {
        let dir = try temporaryFolder("gate")
        let run = dir.appendingPathComponent("run")
        // Each workload's default run (`SharedRuns.defaultArguments`), shared with its own baseline test.
        for workload in WorkloadRegistry.all { try SharedRuns.copy(defaultOf: workload.name, into: run) }
        // The unsynchronized control, with enough repetitions that it cannot miss its race.
        let control = dir.appendingPathComponent("control")
        let c = try ExecutableRunner.run("bench-atomics", ["--quiet", "--output", control.path] + GateRun.controlArguments)
        XCTAssertEqual(c.status, 0, c.stderr)
        let r = try ExecutableRunner.run(
            "bench-gate",
            [run.path, control.path, "--thresholds", thresholds, "--no-baseline", "--only", "deterministic"]
        )
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: run.appendingPathComponent("gate.json")))
        for workload in WorkloadRegistry.all.map(\.name) {  // a workload missing from the runs above fails here
            XCTAssertFalse(verdict.thresholds.filter { $0.workload == workload }.isEmpty, workload)
        }
        XCTAssertEqual(verdict.thresholds.filter { $0.status != "pass" }.map(\.id), [])
        XCTAssertEqual(verdict.verdict, "pass")
    }

    /// Same code, same seeds: the deterministic comparison passes. A changed policy interval:
    /// every changed value is reported and the verdict is a regression (exit 1).
    func testGateCatchesAChangedPolicyInterval() throws {
        let dir = try temporaryFolder("gate")
        let args = ["--scenario", "storm-slow,mmpp"]
        let baseline = try throttleRun(args, in: dir, name: "baseline")
        let same = try throttleRun(args, in: dir, name: "same", fresh: true)  // a second process: the same values
        let changed = try throttleRun(args + ["--fixed-interval-ms", "110"], in: dir, name: "changed")
        let thresholds = try Self.throttleSlice(["storm-slow", "mmpp"], in: dir)
        let pass = try ExecutableRunner.run("bench-gate", [same.path, "--baseline", baseline.path, "--thresholds", thresholds])
        XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)
        XCTAssertTrue(pass.stdout.contains("0 changed"))
        let fail = try ExecutableRunner.run("bench-gate", [changed.path, "--baseline", baseline.path, "--thresholds", thresholds])
        XCTAssertEqual(fail.status, 1, fail.stdout + fail.stderr)
        XCTAssertTrue(fail.stdout.contains("REGRESSION"))
        XCTAssertTrue(fail.stdout.contains("| throttle | mmpp | fixed-rate |"), fail.stdout)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: changed.appendingPathComponent("gate.json")))
        let moved = Set(verdict.comparison!.changes.map { "\($0.scenario)/\($0.variant)" })
        XCTAssertEqual(moved, ["storm-slow/fixed-rate", "mmpp/fixed-rate"], "only the changed policy moved")
        let summary = try String(contentsOf: changed.appendingPathComponent("gate-summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.hasPrefix("## PatternBench gate: REGRESSION"))
    }

    func testUpdateBaselineThenPass() throws {
        let (dir, run, thresholds) = try steadyRun()
        let baseline = dir.appendingPathComponent("new-baseline")
        let update = try ExecutableRunner.run(
            "bench-gate",
            [run.path, "--baseline", baseline.path, "--thresholds", thresholds, "--update-baseline", "--no-baseline"]
        )
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: baseline.appendingPathComponent("throttle.csv").path))
        let check = try ExecutableRunner.run("bench-gate", [run.path, "--baseline", baseline.path, "--thresholds", thresholds])
        XCTAssertEqual(check.status, 0, check.stdout)
    }

    /// The documented command records a *first* baseline (the folder does not exist
    /// yet); the summary says so, and gating against it then passes. A baseline folder that exists
    /// and is broken is still refused (exit 3): only an absent or empty one is "first".
    func testFirstBaselineWithTheDocumentedCommand() throws {
        let (dir, run, thresholds) = try steadyRun()
        let baseline = dir.appendingPathComponent("my-baseline")
        let first = try ExecutableRunner.run(
            "bench-gate",
            [run.path, "--thresholds", thresholds, "--update-baseline", "--baseline", baseline.path]
        )
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertTrue(first.stdout.contains("no baseline at `\(baseline.path)` yet"), first.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: baseline.appendingPathComponent("throttle.json").path))
        let check = try ExecutableRunner.run("bench-gate", [run.path, "--baseline", baseline.path, "--thresholds", thresholds])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("0 changed"), check.stdout)
        // Control: without --update-baseline, a missing baseline is still exit 3.
        let none = dir.appendingPathComponent("none")
        let missing = try ExecutableRunner.run("bench-gate", [run.path, "--thresholds", thresholds, "--baseline", none.path])
        XCTAssertEqual(missing.status, 3, missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: none.path))
    }

    /// A threshold naming a variant that does not exist (a typo) is exit 2 naming it,
    /// not "skipped" and a pass; the same file spelled right passes (the control).
    func testTypoedVariantIsRefused() throws {
        let (dir, run, _) = try steadyRun()
        func file(_ variant: String) throws -> String {
            let path = dir.appendingPathComponent("\(variant).json")
            try
                #"{"schema_version": 1, "hardware_metrics": [], "thresholds": [{"id": "my.every-commit", "kind": "deterministic", "workload": "throttle", "scenario": "*", "variant": "VARIANT", "metric": "undelivered", "bound": {"op": "==", "value": 0}, "reason": "r"}]}"#
                .replacingOccurrences(of: "VARIANT", with: variant).write(to: path, atomically: true, encoding: .utf8)
            return path.path
        }
        let typo = try ExecutableRunner.run("bench-gate", [run.path, "--thresholds", try file("fixed-rat"), "--no-baseline"])
        XCTAssertEqual(typo.status, 2, typo.stdout + typo.stderr)
        XCTAssertTrue(
            typo.stderr.contains("threshold my.every-commit selects no result row (no sim undelivered for steady/fixed-rat)"),
            typo.stderr
        )
        XCTAssertEqual(typo.stderr.split(separator: "\n").count, 1, typo.stderr)
        let right = try ExecutableRunner.run("bench-gate", [run.path, "--thresholds", try file("fixed-rate"), "--no-baseline"])
        XCTAssertEqual(right.status, 0, right.stdout + right.stderr)
        XCTAssertTrue(right.stdout.contains("1 passed, 0 failed, 0 skipped"), right.stdout)
    }

    func testBadInputExitCodes() throws {
        let (dir, run, thresholds) = try steadyRun()
        // A baseline from another schema version.
        let old = dir.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        let json = try String(contentsOf: run.appendingPathComponent("throttle.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"schema_version\" : \(RunDocument.currentSchemaVersion)", with: "\"schema_version\" : 99")
        try json.write(to: old.appendingPathComponent("throttle.json"), atomically: true, encoding: .utf8)
        // A thresholds file naming a metric that does not exist, and one with a malformed bound.
        let typo = dir.appendingPathComponent("typo.json")
        try
            #"{"schema_version": 1, "hardware_metrics": [], "thresholds": [{"id": "t", "kind": "deterministic", "workload": "throttle", "scenario": "*", "variant": "*", "metric": "latncy_p99_ms", "bound": {"op": "<", "value": 1}, "reason": "r"}]}"#
            .write(to: typo, atomically: true, encoding: .utf8)
        let malformed = dir.appendingPathComponent("malformed.json")
        try
            #"{"schema_version": 1, "hardware_metrics": [], "thresholds": [{"id": "t", "kind": "deterministic", "workload": "throttle", "scenario": "*", "variant": "*", "metric": "updates", "bound": {"op": "<"}, "reason": "r"}]}"#
            .write(to: malformed, atomically: true, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            ([run.path, "--thresholds", thresholds, "--baseline", dir.appendingPathComponent("none").path], 3, "no such results folder"),
            ([run.path, "--thresholds", thresholds, "--baseline", old.path], 3, "schema_version: 99"),
            ([run.path, "--thresholds", typo.path, "--no-baseline"], 2, "'latncy_p99_ms' is not a metric of workload throttle"),
            ([run.path, "--thresholds", malformed.path, "--no-baseline"], 2, "thresholds[0].bound.value: missing"),
            ([dir.appendingPathComponent("nothing").path, "--thresholds", thresholds], 2, "no such results folder"),
            ([run.path, "--frobnicate"], 2, "--frobnicate"),
        ]
        for (args, code, expected) in cases {
            let r = try ExecutableRunner.run("bench-gate", args)
            XCTAssertEqual(r.status, code, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): expected '\(expected)' in \(r.stderr)")
        }
    }
}

/// Arguments shared with scripts/gate-run.sh.
enum GateRun {
    static let controlArguments = [
        "--scenario", "transition", "--variant", "unsynchronized", "--threads", "8", "--cs-work", "0",
        "--seeds", "5", "--duration", "0.1", "--warmup", "0.01", "--probe-duration", "0",
    ]
}

/// The parts of gate.json the tests read (decoded independently of the Swift types on purpose:
/// this is the file format other tools consume).
struct GateVerdictFile: Decodable {
    struct Outcome: Decodable {
        var id, workload, status: String
    }
    struct Change: Decodable {
        var scenario, variant, metric: String
    }
    struct Comparison: Decodable {
        var changes: [Change]
    }
    var verdict: String
    var exit_code: Int
    var thresholds: [Outcome]
    var comparison: Comparison?
}

/// bench-gate refuses results it cannot trust: each case is one line on stderr naming
/// the file and what is wrong, exit 2, and never a pass. Each case first shows the unmodified
/// folder passing, so the refusal comes from the one change made.
final class BenchGateInputTests: XCTestCase {
    var thresholds = ""

    override func setUpWithError() throws {
        let dir = try ExecutableRunner.temporaryDirectory("gate-thresholds")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        thresholds = try BenchGateTests.throttleSlice(["steady", "storm-slow"], in: dir)
    }

    /// A short throttle run to corrupt: a fresh copy per case of one run per test process (the
    /// run is bit-identical every time; only the copy is changed).
    func run(in dir: URL, _ name: String) throws -> URL {
        let out = dir.appendingPathComponent(name)
        try SharedRuns.copy(SharedRuns.run("bench-throttle", ["--scenario", "steady,storm-slow", "--quick"]), into: out)
        return out
    }

    func editJSON(_ folder: URL, _ edit: (inout [String: Any]) -> Void) throws {
        let file = folder.appendingPathComponent("throttle.json")
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: file)
    }

    func gate(_ folder: URL, _ extra: [String] = ["--no-baseline"]) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run("bench-gate", [folder.path, "--thresholds", thresholds] + extra)
    }

    func assertRefused(_ folder: URL, code: Int32 = 2, _ expected: String, _ extra: [String] = ["--no-baseline"], line: UInt = #line) throws
    {
        let r = try gate(folder, extra)
        XCTAssertEqual(r.status, code, r.stdout + r.stderr, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, line: line)
        XCTAssertTrue(r.stderr.contains(expected), "expected '\(expected)' in: \(r.stderr)", line: line)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("gate.json").path),
            "no verdict is written",
            line: line
        )
    }

    /// Deterministic values of two random stream versions are not compared: a baseline
    /// of another version is refused with one line, exit 2; one without the key counts as version
    /// 1. The control: the same baseline with the results' version is compared (0 changed values).
    func testBaselineOfAnotherRandomStreamVersionIsRefused() throws {
        let dir = try ExecutableRunner.temporaryDirectory("gate-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        let results = try run(in: dir, "results")
        let document =
            try JSONSerialization.jsonObject(with: Data(contentsOf: results.appendingPathComponent("throttle.json"))) as! [String: Any]
        let version = (document["metadata"] as! [String: Any])["random_stream_version"] as? Int
        XCTAssertEqual(version, 2, "bench-throttle records its arrival stream's version")

        let same = try run(in: dir, "same")
        let control = try gate(results, ["--baseline", same.path])
        XCTAssertEqual(control.status, 0, control.stdout + control.stderr)
        XCTAssertTrue(control.stdout.contains("0 changed"), control.stdout)
        try FileManager.default.removeItem(at: results.appendingPathComponent("gate.json"))

        let older = try run(in: dir, "older")
        try editJSON(older) { doc in
            var meta = doc["metadata"] as! [String: Any]
            meta["random_stream_version"] = 1
            doc["metadata"] = meta
        }
        try assertRefused(results, "throttle: random stream version 2 in the results but 1 in \(older.path)", ["--baseline", older.path])
        try editJSON(older) { doc in
            var meta = doc["metadata"] as! [String: Any]
            meta.removeValue(forKey: "random_stream_version")
            doc["metadata"] = meta
        }
        try assertRefused(results, "throttle: random stream version 2 in the results but 1 in \(older.path)", ["--baseline", older.path])
        // Recording a new baseline across versions is allowed: that is how a version changes.
        let update = try gate(results, ["--baseline", older.path, "--update-baseline"])
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
    }

    func testUntrustworthyResultsAreInputErrors() throws {
        let dir = try temporaryFolder("gate-input")
        let good = try run(in: dir, "good")
        XCTAssertEqual(try gate(good).status, 0, "the unmodified run passes")

        // No records at all: the gate must never pass nothing.
        let empty = try run(in: dir, "empty")
        try FileManager.default.removeItem(at: empty.appendingPathComponent("throttle.csv"))
        try editJSON(empty) { $0["records"] = [Any]() }
        try assertRefused(empty, "records: the document holds no records")

        // A document relabelled to a workload the thresholds file does not know.
        let relabelled = try run(in: dir, "relabelled")
        try FileManager.default.removeItem(at: relabelled.appendingPathComponent("throttle.csv"))
        try editJSON(relabelled) { doc in
            doc["workload"] = "throttlex"
            doc["records"] = (doc["records"] as! [[String: Any]]).map {
                var r = $0
                r["workload"] = "throttlex"
                return r
            }
        }
        try assertRefused(relabelled, "workload: 'throttlex' is not a workload the thresholds file knows")

        // The same cell twice with different values: the first copy no longer silently wins.
        let duplicated = try run(in: dir, "duplicated")
        try FileManager.default.removeItem(at: duplicated.appendingPathComponent("throttle.csv"))
        try editJSON(duplicated) { doc in
            var records = doc["records"] as! [[String: Any]]
            var copy = records[0]
            copy["value"] = (copy["value"] as! Double) + 1
            records.append(copy)
            doc["records"] = records
        }
        try assertRefused(duplicated, "duplicate cell throttle/")

        // A CSV that disagrees with its JSON (one value changed), and a CSV without its JSON.
        let mismatched = try run(in: dir, "mismatched")
        let csvURL = mismatched.appendingPathComponent("throttle.csv")
        var lines = try String(contentsOf: csvURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init
        )
        var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[fields.count - 3] = "123456789"
        lines[1] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: csvURL, atomically: true, encoding: .utf8)
        try assertRefused(mismatched, "throttle.csv: line 2: value is '123456789'")
        let orphan = try run(in: dir, "orphan")
        try FileManager.default.removeItem(at: orphan.appendingPathComponent("throttle.json"))
        try assertRefused(orphan, "a results CSV without its JSON document")

        // Another schema version in the *results* is an input error (2); 3 is the baseline's.
        let future = try run(in: dir, "future")
        try editJSON(future) { $0["schema_version"] = 99 }
        try assertRefused(future, "schema_version: 99 is not one this tool reads (1, 2, 3)")

        // An interrupted run, marked incomplete.
        let interrupted = try run(in: dir, "interrupted")
        try editJSON(interrupted) {
            $0["complete"] = false
            $0["planned_items"] = 14
            $0["completed_items"] = 3
        }
        try assertRefused(interrupted, "complete: false: the run was interrupted (3 of 14 items ran)")

        // Items that failed in their own process while the rest finished: gated as such (exit 1,
        // the failures listed, the verdict says why), not refused as interrupted.
        let failed = try run(in: dir, "failed")
        try editJSON(failed) { doc in
            doc["complete"] = false
            doc["planned_items"] = 2
            doc["completed_items"] = 1
            var meta = doc["metadata"] as! [String: Any]
            var parameters = meta["parameters"] as! [String: Any]
            parameters["failed_items"] = [["item": "storm-slow/my-throttler", "reason": "failed: exit status 132 (Fatal error)"]]
            meta["parameters"] = parameters
            doc["metadata"] = meta
        }
        let gated = try gate(failed)
        XCTAssertEqual(gated.status, 1, gated.stdout + gated.stderr)
        XCTAssertTrue(gated.stdout.contains("Why: 1 item of throttle failed to run"), gated.stdout)
        XCTAssertTrue(gated.stdout.contains("| throttle | storm-slow/my-throttler | failed: exit status 132 (Fatal error) |"), gated.stdout)
        let verdict = try JSONSerialization.jsonObject(with: Data(contentsOf: failed.appendingPathComponent("gate.json"))) as! [String: Any]
        XCTAssertEqual((verdict["failed_items"] as! [Any]).count, 1)
        // As a baseline the same folder is refused (exit 3): a reference must be complete.
        try FileManager.default.removeItem(at: failed.appendingPathComponent("gate.json"))
        try FileManager.default.removeItem(at: failed.appendingPathComponent("gate-summary.md"))
        let second = try run(in: dir, "fresh-for-failed")
        try assertRefused(second, code: 3, "complete: false: 1 item(s) failed; a reference must be complete", ["--baseline", failed.path])
        // Control: one item unaccounted for (1 done + 1 failed of 3 planned) is an interruption.
        try editJSON(failed) { $0["planned_items"] = 3 }
        try assertRefused(failed, "complete: false: the run was interrupted (1 of 3 items ran)")

        // A scenario the document declares, gated, but without a record.
        let missing = try run(in: dir, "missing")
        try FileManager.default.removeItem(at: missing.appendingPathComponent("throttle.csv"))
        try editJSON(missing) { doc in
            doc["records"] = (doc["records"] as! [[String: Any]]).filter { $0["scenario"] as? String != "storm-slow" }
        }
        try assertRefused(missing, "scenario 'storm-slow' is declared in metadata.parameters but has no records")

        // The same checks hold for the baseline, with the baseline's exit code (3).
        let fresh = try run(in: dir, "fresh")
        try assertRefused(fresh, code: 3, "complete: false", ["--baseline", interrupted.path])
    }
}

/// Hardware metrics against a baseline from another CPU (emulated: this run's own document with
/// the fingerprint of a CPU family 26 host and every value 40 % lower, as a family 26 host saw):
/// not comparable, one line, exit 0. The same values with this host's fingerprint fail (exit 1),
/// so the pass is the fingerprint's doing. A/B mode gates against the base given with --ab-base.
final class BenchGateFingerprintTests: XCTestCase {
    func testBaselineFromAnotherCPUIsNotComparableAndABModeGates() throws {
        let dir = try temporaryFolder("gate-fingerprint")
        // The slice runs neither the unsynchronized control nor the contended scenarios.
        let thresholds = try BenchGateTests.sliceThresholds(in: dir) { t in
            t["workload"] as? String != "atomics"
                || (t["variant"] as? String != "unsynchronized" && t["scenario"] as? String != "different-atomics")
        }
        let current = dir.appendingPathComponent("current")
        let r = try ExecutableRunner.run(
            "bench-atomics",
            [
                "--quiet", "--output", current.path, "--scenario", "increment", "--threads", "1",
                "--cs-work", "0", "--gap-work", "0", "--variant", "pthread-mutex,atomic,c-pthread-mutex,c-atomic",
                "--seeds", "8", "--duration", "0.02", "--warmup", "0.005", "--probe-duration", "0",
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: current.appendingPathComponent("atomics.json"))) as! [String: Any]
        let host = (doc["metadata"] as! [String: Any])["host"] as! [String: Any]
        try XCTSkipIf(host["cpu_family"] == nil, "this kernel does not report a CPU family")
        // Another CPU than this host's, whatever host runs the test (CI's runners are family 26,
        // so a fixed "family 26" would be this very CPU there).
        let otherFamily = (host["cpu_family"] as! Int) + 1

        func variant(_ name: String, family: Int?) throws -> URL {
            var d = doc
            var meta = d["metadata"] as! [String: Any]
            var h = host
            if let family {
                h["cpu_family"] = family
                h["cpu_model_number"] = 2
                h["cpu_microcode"] = "0xb002116"
            }
            meta["host"] = h
            d["metadata"] = meta
            d["records"] = (d["records"] as! [[String: Any]]).map { rec in
                var rec = rec
                if (rec["metric"] as! String).contains("ratio") { rec["value"] = (rec["value"] as! Double) * 0.6 }
                return rec
            }
            let folder = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: d).write(to: folder.appendingPathComponent("atomics.json"))
            return folder
        }
        let otherCPU = try variant("other-family", family: otherFamily)
        let sameCPU = try variant("same-cpu", family: nil)
        let floors = try Self.committedFloors(as: host, in: dir)

        let other = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--baseline", otherCPU.path, "--noise-floor", floors.path]
        )
        XCTAssertEqual(other.status, 0, other.stdout + other.stderr)
        XCTAssertTrue(other.stdout.contains("not comparable: the baseline was measured on "), other.stdout)
        XCTAssertTrue(other.stdout.contains("family \(otherFamily)"), other.stdout)
        XCTAssertEqual(other.stdout.components(separatedBy: "not comparable:").count - 1, 1, "one line: \(other.stdout)")
        XCTAssertTrue(other.stdout.contains("0 regressed, 0 improved"), other.stdout)

        let same = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--baseline", sameCPU.path, "--noise-floor", floors.path]
        )
        XCTAssertEqual(same.status, 1, "the same CPU with 40 % lower ratios is a regression: \(same.stdout)")
        XCTAssertTrue(same.stdout.contains("**REGRESSION** | atomics | increment / pthread-mutex"), same.stdout)

        // A/B: hardware against the base folder, deterministic against no baseline here.
        let ab = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--no-baseline", "--ab-base", sameCPU.path, "--noise-floor", floors.path]
        )
        XCTAssertEqual(ab.status, 1, ab.stdout + ab.stderr)
        XCTAssertTrue(ab.stdout.contains("against the A/B base"), ab.stdout)
        let aa = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--no-baseline", "--ab-base", current.path, "--noise-floor", floors.path]
        )
        XCTAssertEqual(aa.status, 0, "a run against itself: \(aa.stdout)")
        let moved = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--no-baseline", "--ab-base", otherCPU.path]
        )
        XCTAssertEqual(moved.status, 0, moved.stdout)
        XCTAssertTrue(moved.stdout.contains("not comparable"), moved.stdout)
        let both = try ExecutableRunner.run(
            "bench-gate",
            [current.path, "--thresholds", thresholds, "--update-baseline", "--ab-base", current.path]
        )
        XCTAssertEqual(both.status, 2, both.stderr)
    }

    /// The committed noise floors of one CPU (this host's when the file has them, else the first
    /// CPU's) keyed to this host's CPU, so that the "same CPU" verdict does not depend on which CPU
    /// runs the test: without a floor for its CPU a one-run-a-side cell is inconclusive, and the
    /// test failed on every host but the ones the floors were learned on. One CPU's only: the file
    /// holds floors of several, and two re-keyed to one fingerprint would collide.
    static func committedFloors(as host: [String: Any], in dir: URL) throws -> URL {
        let hostInfo = try JSONDecoder().decode(HostInfo.self, from: JSONSerialization.data(withJSONObject: host))
        let fingerprint = try XCTUnwrap(hostInfo.fingerprint, "the run's host has no CPU fingerprint").description
        let source = BenchGateTests.packageRoot.appendingPathComponent("results/noise-floor.json")
        var doc = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as! [String: Any]
        let floors = doc["floors"] as! [[String: Any]]
        func cpu(_ floor: [String: Any]) -> Substring { (floor["key"] as! String).prefix { $0 != "|" } }
        let learnedOn = floors.contains { cpu($0) == fingerprint } ? Substring(fingerprint) : try XCTUnwrap(floors.first.map(cpu))
        doc["floors"] = floors.filter { cpu($0) == learnedOn }.map { floor in
            var floor = floor
            let key = floor["key"] as! String
            floor["key"] = fingerprint + key[key.firstIndex(of: "|")!...]
            return floor
        }
        let file = dir.appendingPathComponent("noise-floor.json")
        try JSONSerialization.data(withJSONObject: doc).write(to: file)
        return file
    }
}

/// Provenance: the commit a binary records is the one its source was built from,
/// wherever it runs — not the commit of the folder it is started in (here /tmp, outside any
/// checkout, where reading `.git` at run time gave null).
final class ProvenanceTests: XCTestCase {
    func testRunsRecordTheCommitTheBinaryWasBuiltFrom() throws {
        let root = BenchGateTests.packageRoot
        let dir = try temporaryFolder("provenance")
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quiet", "--output", dir.path, "--scenario", "steady", "--quick"],
            cwd: URL(fileURLWithPath: "/")
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("throttle.json"))) as! [String: Any]
        let meta = doc["metadata"] as! [String: Any]
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) else {
            XCTAssertTrue(meta["git_commit"] is NSNull, "built without a checkout: unknown")
            return
        }
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path, "rev-parse", "HEAD"]
        let pipe = Pipe()
        git.standardOutput = pipe
        try git.run()
        git.waitUntilExit()
        let head = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        XCTAssertEqual(meta["git_commit"] as? String, head, "the commit of the source, read at build time")
        XCTAssertNotNil(meta["git_dirty"] as? Bool, "a dirty flag is recorded with the commit")
    }
}
