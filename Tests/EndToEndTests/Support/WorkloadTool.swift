import Foundation
import Measurement
import Records
import XCTest

/// A workload's `bench-*` executable under end-to-end test, with what every such test does the
/// same way written once: the deterministic columns of a run's CSV, determinism for any `--jobs`,
/// shards, the files a run writes, the default run gated against the committed baseline and
/// thresholds, and bad input refused in one line. Each workload's test passes only what differs.
struct WorkloadTool {
    /// The executable, `bench-<workload>`.
    var name: String
    /// The workload's name in records, thresholds and file names (`group` → `group.csv`).
    var workload: String

    init(_ workload: String) {
        self.workload = workload
        self.name = "bench-\(workload)"
    }

    /// The checkout's root (three folders above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var committedThresholds: String { packageRoot.appendingPathComponent("results/thresholds.json").path }
    static var committedBaseline: String { packageRoot.appendingPathComponent("results/baseline").path }

    /// CSV rows (header dropped) without run_id (first column) and host (last): every other
    /// column of a virtual-time run is deterministic.
    static func deterministicColumns(_ csv: String) -> [String] {
        csv.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).dropFirst().dropLast().joined(separator: ",")
        }
    }

    /// `--format csv` run quietly into a throw-away folder: its deterministic columns.
    func csvValues(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let dir = try ExecutableRunner.temporaryDirectory(workload)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ExecutableRunner.run(name, ["--quiet", "--format", "csv", "--output", dir.path] + args)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return Self.deterministicColumns(r.stdout)
    }

    /// The same rows for `--jobs 1` and `--jobs 3`, and other rows for another `--seed` (the
    /// control: the comparison can fail). The three runs side by side (`swift test`
    /// within 180 s; `--jobs 1` alone leaves a core idle).
    func assertDeterministicForAnyJobs(_ args: [String], otherSeed: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let runs = try concurrently(
            [["--jobs", "1"], ["--jobs", "3"], ["--seed", otherSeed]].map { extra in { try csvValues(args + extra, file: file, line: line) }
            }
        )
        let one = runs[0]
        XCTAssertFalse(one.isEmpty, file: file, line: line)
        XCTAssertEqual(one, runs[1], file: file, line: line)
        XCTAssertNotEqual(one, runs[2], file: file, line: line)
    }

    /// `--shard 1/3`, `2/3` and `3/3` together give exactly the rows of the whole run (the four
    /// runs side by side).
    func assertShardsPartition(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let runs = try concurrently(
            ([[]] + (1...3).map { ["--shard", "\($0)/3"] }).map { (extra: [String]) in
                { try csvValues(args + extra, file: file, line: line) }
            }
        )
        let whole = Set(runs[0])
        var union = Set<String>()
        for part in runs.dropFirst() { union.formUnion(part) }
        XCTAssertEqual(union, whole, file: file, line: line)
    }

    /// The tidy CSV's header: the shared columns around this workload's factor columns, as
    /// `WorkloadRegistry` declares them (the analysis package reads the same declaration).
    var csvHeader: String {
        let factors = WorkloadRegistry.workload(named: workload)?.factors.map(\.name) ?? ["(\(workload) is not registered)"]
        return
            (["run_id", "workload", "scenario", "variant", "origin", "mode", "seed", "repetition"] + factors
            + ["metric", "value", "unit", "host"]).joined(separator: ",")
    }

    /// A run as a user first makes it, `args --quiet --output <a fresh folder>`: exit 0, the
    /// printed table names each of `names`, `<workload>.csv` opens with `csvHeader`, and
    /// `<workload>.json` is a complete run document, returned for the workload's own checks.
    func assertWritesItsFiles(
        _ args: [String],
        names: [String],
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws
        -> RunDocument
    {
        let dir = try ExecutableRunner.temporaryDirectory(workload)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try ExecutableRunner.run(name, args + ["--quiet", "--output", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        for name in names { XCTAssertTrue(r.stdout.contains(name), name, file: file, line: line) }
        let csv = try String(contentsOf: dir.appendingPathComponent("\(workload).csv"), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\n").first.map(String.init), csvHeader, file: file, line: line)
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("\(workload).json")))
        XCTAssertTrue(doc.complete, file: file, line: line)
        return doc
    }

    /// bench-gate over `run` against the committed baseline and thresholds: it passes, and every
    /// threshold of this workload (at least `atLeast` of them) was evaluated and passed, none skipped.
    func assertPassesCommittedGate(_ run: URL, atLeast: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let gate = try Self.gateAgainstCommitted(run)
        XCTAssertEqual(gate.status, 0, gate.stdout + gate.stderr, file: file, line: line)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: run.appendingPathComponent("gate.json")))
        let outcomes = verdict.thresholds.filter { $0.workload == workload }
        XCTAssertGreaterThanOrEqual(outcomes.count, atLeast, file: file, line: line)
        XCTAssertEqual(outcomes.filter { $0.status != "pass" }.map(\.id), [], file: file, line: line)
    }

    /// The default run (`SharedRuns`, also gated by the gate's XCTest layer) passes the committed
    /// gate with at least `atLeast` thresholds of this workload, and a run with `change` (a changed
    /// model) is caught by the baseline comparison: the control that the comparison can fail.
    func assertDefaultRunPassesAndAChangeIsCaught(
        atLeast: Int,
        change: [String],
        file: StaticString = #filePath,
        line: UInt = #line
    )
        throws
    {
        let dir = try ExecutableRunner.temporaryDirectory("\(workload)-gate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("default")
        try SharedRuns.copy(defaultOf: workload, into: run, file: file, line: line)
        let changed = dir.appendingPathComponent("changed")
        // The gate of the default run beside the changed run and its gate (the gate
        // runs on one core).
        _ = try concurrently([
            { try assertPassesCommittedGate(run, atLeast: atLeast, file: file, line: line) },
            {
                let r = try ExecutableRunner.run(name, ["--quiet", "--output", changed.path] + change)
                XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
                try assertCommittedGateCatches(changed, file: file, line: line)
            },
        ])
    }

    /// bench-gate over `run`, a run of a changed model, against the committed baseline: exit 1,
    /// the deterministic comparison caught the change.
    func assertCommittedGateCatches(_ run: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let caught = try Self.gateAgainstCommitted(run)
        XCTAssertEqual(caught.status, 1, caught.stdout + caught.stderr, file: file, line: line)
    }

    static func gateAgainstCommitted(_ run: URL) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run("bench-gate", [run.path, "--baseline", committedBaseline, "--thresholds", committedThresholds, "--quiet"])
    }

    /// Cases of bad input written one a line, `arguments | the expected text` (the arguments split
    /// at spaces), for `assertOneLineErrors`.
    static func cases(_ table: String, file: StaticString = #filePath, line: UInt = #line) -> [([String], String)] {
        table.split(separator: "\n").compactMap { row in
            let parts = row.split(separator: "|", maxSplits: 1)
            guard parts.count == 2 else {
                XCTFail("a case is `arguments | expected`: \(row)", file: file, line: line)
                return nil
            }
            return (parts[0].split(separator: " ").map(String.init), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Each case of bad input (its arguments plus `appending`) is refused with exit `status` (any
    /// non-zero one where nil) and exactly one stderr line, `bench-…: error: …`, containing the
    /// expected text; never a trap.
    ///
    /// A case that names no `--output` gets a fresh folder of its own (`--output` appended), so no
    /// case writes into, or locks, the default results folder. Cases that share a folder run one
    /// after another: a run holds its folder, and bench-throttle takes that lock before it checks
    /// its arguments. All other cases run side by side (one process per case, one after
    /// another, left a core idle).
    func assertOneLineErrors(
        _ cases: [([String], String)],
        appending: [String] = [],
        status: Int32? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let dir = try ExecutableRunner.temporaryDirectory("\(workload)-bad-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        var chains: [String: [([String], String)]] = [:]
        var order: [String] = []
        for (index, (args, expected)) in cases.enumerated() {
            var all = args + appending
            let named = all.indices.last { all[$0] == "--output" && $0 + 1 < all.count }.map { all[$0 + 1] }
            let folder = named ?? dir.appendingPathComponent("case-\(index)").path
            if named == nil { all += ["--output", folder] }
            if chains[folder] == nil { order.append(folder) }
            chains[folder, default: []].append((all, expected))
        }
        let runs = try concurrently(
            order.map { folder in
                { try chains[folder]!.map { args, expected in (args, expected, try ExecutableRunner.run(name, args)) } }
            }
        )
        for (args, expected, r) in runs.joined() {
            if let status {
                XCTAssertEqual(r.status, status, "\(args): \(r.stderr)", file: file, line: line)
            } else {
                XCTAssertNotEqual(r.status, 0, "\(args)", file: file, line: line)
            }
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)", file: file, line: line)
            XCTAssertTrue(r.stderr.hasPrefix("\(name): error: "), "\(args): \(r.stderr)", file: file, line: line)
            XCTAssertTrue(r.stderr.contains(expected), "\(args): expected '\(expected)' in: \(r.stderr)", file: file, line: line)
            XCTAssertFalse(r.stderr.contains("Fatal error"), "\(args)", file: file, line: line)
        }
    }
}

extension XCTestCase {
    /// A fresh folder for this test, removed when the test ends (passed or failed).
    func temporaryFolder(_ name: String) throws -> URL {
        let dir = try ExecutableRunner.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }
}
