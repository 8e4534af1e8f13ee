import Foundation
import XCTest

/// bench-skeleton as a user runs it: the default matrix equals the committed baseline, meets its
/// thresholds and does not depend on --jobs; a bad flag is one line and exit 64.
final class BenchSkeletonTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func run(_ args: [String], into out: URL) throws {
        let r = try ExecutableRunner.run("bench-skeleton", ["--quiet", "--output", out.path] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The CSV's rows without run_id (first column) and host (last): what must not change.
    func rows(_ folder: URL) throws -> [String] {
        let csv = try String(contentsOf: folder.appendingPathComponent("skeleton.csv"), encoding: .utf8)
        return csv.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).dropFirst().dropLast().joined(separator: ",")
        }
    }

    func testDefaultRunMatchesBaselineAndThresholdsWhateverJobs() throws {
        let dir = try ExecutableRunner.temporaryDirectory("skeleton")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        try run([], into: a)
        try run(["--jobs", "1"], into: b)
        XCTAssertEqual(try rows(a), try rows(b))
        let results = Self.packageRoot.appendingPathComponent("results")
        let gate = try ExecutableRunner.run(
            "bench-gate",
            [a.path, "--baseline", results.appendingPathComponent("baseline").path, "--quiet"]
                + ["--thresholds", results.appendingPathComponent("thresholds.json").path]
        )
        XCTAssertEqual(gate.status, 0, gate.stdout + gate.stderr)
        let verdict = try JSONSerialization.jsonObject(with: Data(contentsOf: a.appendingPathComponent("gate.json"))) as? [String: Any]
        let outcomes = (verdict?["thresholds"] as? [[String: Any]] ?? []).filter { $0["workload"] as? String == "skeleton" }
        XCTAssertFalse(outcomes.isEmpty, "no threshold of results/thresholds.json checked the skeleton workload")
        XCTAssertEqual(outcomes.filter { $0["status"] as? String != "pass" }.compactMap { $0["id"] as? String }, [])
    }

    /// The control of the test above: a changed model (a slower handler) fails the gate.
    func testTheGateCatchesAChangedModel() throws {
        let dir = try ExecutableRunner.temporaryDirectory("skeleton-changed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let changed = dir.appendingPathComponent("changed")
        try run(["--handler-cost-ms", "6"], into: changed)
        let baseline = Self.packageRoot.appendingPathComponent("results/baseline").path
        let gate = try ExecutableRunner.run("bench-gate", [changed.path, "--baseline", baseline, "--quiet"])
        XCTAssertEqual(gate.status, 1, gate.stdout + gate.stderr)
    }

    func testBadInputIsOneLineAndAUsageExit() throws {
        for args in [["--interval-ms", "-1"], ["--variant", "nope"], ["--scenario", "nope"]] {
            let r = try ExecutableRunner.run("bench-skeleton", args + ["--quiet"])
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
        }
    }
}
