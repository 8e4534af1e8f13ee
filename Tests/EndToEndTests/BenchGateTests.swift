import Foundation
import Measurement
import XCTest

/// The XCTest layer of the regression gate, and bench-gate's contract (verdicts and exit codes).
final class BenchGateTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var thresholds: String { Self.packageRoot.appendingPathComponent("results/thresholds.json").path }

    func throttleRun(_ extra: [String] = [], in dir: URL, name: String) throws -> URL {
        let out = dir.appendingPathComponent(name)
        let r = try ExecutableRunner.run("bench-throttle", ["--quiet", "--output", out.path] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    /// The XCTest layer of the gate: short deterministic runs of all three workloads, and every
    /// deterministic threshold holds — none fails and none is skipped for want of data.
    func testDeterministicThresholdsOfAllWorkloadsHold() throws {
        let dir = try ExecutableRunner.temporaryDirectory("gate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        for (tool, args) in [
            ("bench-throttle", []),
            ("bench-clock", ["--no-read-cost"]),
            ("bench-cache", ["--seeds", "1"]),
            // Every operation and lock at 1 and 8 threads (8 oversubscribe 2 cores), briefly:
            // lost updates are exact whatever the timing.
            ("bench-atomics", ["--scenario", "increment,read-mostly,flag,transition,dictionary-update,array-append-drain",
                               "--variant", "pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,atomic,unsynchronized",
                               "--threads", "1,8", "--cs-work", "0", "--duration", "0.05", "--warmup", "0.01", "--seeds", "1", "--probe-duration", "0"]),
        ] {
            let r = try ExecutableRunner.run(tool, ["--quiet", "--output", run.path] + args)
            XCTAssertEqual(r.status, 0, "\(tool): \(r.stderr)")
        }
        // The unsynchronized control, with enough repetitions that it cannot miss its race.
        let control = dir.appendingPathComponent("control")
        let c = try ExecutableRunner.run("bench-atomics", ["--quiet", "--output", control.path] + GateRun.controlArguments)
        XCTAssertEqual(c.status, 0, c.stderr)
        let r = try ExecutableRunner.run("bench-gate", [run.path, control.path, "--thresholds", thresholds, "--no-baseline", "--only", "deterministic"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: run.appendingPathComponent("gate.json")))
        for workload in ["throttle", "atomics", "clock", "cache"] {
            XCTAssertFalse(verdict.thresholds.filter { $0.workload == workload }.isEmpty, workload)
        }
        XCTAssertEqual(verdict.thresholds.filter { $0.status != "pass" }.map(\.id), [])
        XCTAssertEqual(verdict.verdict, "pass")
    }

    /// Same code, same seeds: the deterministic comparison passes. A changed policy interval:
    /// every changed value is reported and the verdict is a regression (exit 1).
    func testGateCatchesAChangedPolicyInterval() throws {
        let dir = try ExecutableRunner.temporaryDirectory("gate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--scenario", "storm-slow,mmpp"]
        let baseline = try throttleRun(args, in: dir, name: "baseline")
        let same = try throttleRun(args, in: dir, name: "same")
        let changed = try throttleRun(args + ["--fixed-interval-ms", "110"], in: dir, name: "changed")
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
        let dir = try ExecutableRunner.temporaryDirectory("gate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try throttleRun(["--scenario", "steady", "--quick"], in: dir, name: "run")
        let baseline = dir.appendingPathComponent("new-baseline")
        let update = try ExecutableRunner.run("bench-gate", [run.path, "--baseline", baseline.path, "--thresholds", thresholds, "--update-baseline", "--no-baseline"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: baseline.appendingPathComponent("throttle.csv").path))
        let check = try ExecutableRunner.run("bench-gate", [run.path, "--baseline", baseline.path, "--thresholds", thresholds])
        XCTAssertEqual(check.status, 0, check.stdout)
    }

    func testBadInputExitCodes() throws {
        let dir = try ExecutableRunner.temporaryDirectory("gate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try throttleRun(["--scenario", "steady", "--quick"], in: dir, name: "run")
        // A baseline from another schema version.
        let old = dir.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        let json = try String(contentsOf: run.appendingPathComponent("throttle.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"schema_version\" : 1", with: "\"schema_version\" : 99")
        try json.write(to: old.appendingPathComponent("throttle.json"), atomically: true, encoding: .utf8)
        // A thresholds file naming a metric that does not exist, and one with a malformed bound.
        let typo = dir.appendingPathComponent("typo.json")
        try #"{"schema_version": 1, "hardware_metrics": [], "thresholds": [{"id": "t", "kind": "deterministic", "workload": "throttle", "scenario": "*", "variant": "*", "metric": "latncy_p99_ms", "bound": {"op": "<", "value": 1}, "reason": "r"}]}"#
            .write(to: typo, atomically: true, encoding: .utf8)
        let malformed = dir.appendingPathComponent("malformed.json")
        try #"{"schema_version": 1, "hardware_metrics": [], "thresholds": [{"id": "t", "kind": "deterministic", "workload": "throttle", "scenario": "*", "variant": "*", "metric": "updates", "bound": {"op": "<"}, "reason": "r"}]}"#
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
    static let controlArguments = ["--scenario", "transition", "--variant", "unsynchronized", "--threads", "8", "--cs-work", "0",
                                   "--seeds", "5", "--duration", "0.1", "--warmup", "0.01", "--probe-duration", "0"]
}

/// The parts of gate.json the tests read (decoded independently of the Swift types on purpose:
/// this is the file format other tools consume).
struct GateVerdictFile: Decodable {
    struct Outcome: Decodable {
        var id: String
        var workload: String
        var status: String
    }
    struct Change: Decodable {
        var scenario: String
        var variant: String
        var metric: String
    }
    struct Comparison: Decodable {
        var changes: [Change]
    }
    var verdict: String
    var exit_code: Int
    var thresholds: [Outcome]
    var comparison: Comparison?
}
