import Foundation
import Records
import XCTest

/// `--shard I/N` on every bench-*: the N parts are disjoint and together are the whole matrix.
final class ShardingTests: XCTestCase {
    /// The (scenario, variant, seed, factors) cells a run measured, in the given mode.
    func cells(_ tool: String, _ args: [String], workload: String, mode: String, in dir: URL, name: String) throws -> [String] {
        let out = dir.appendingPathComponent(name)
        let r = try ExecutableRunner.run(tool, ["--quiet", "--output", out.path] + args)
        XCTAssertEqual(r.status, 0, "\(tool) \(args): \(r.stderr)")
        let doc = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("\(workload).json")))
        let keys = doc.records.filter { $0.mode == mode }.map { r in
            "\(r.scenario)|\(r.variant)|\(r.seed)|\(r.factors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        }
        return Array(Set(keys))
    }

    func assertShardsPartition(_ tool: String, _ args: [String], workload: String, mode: String, parts: Int = 3) throws {
        let dir = try temporaryFolder("shard")
        // The whole run and its parts side by side (`swift test` within 180 s).
        let runs = try concurrently(
            [{ try self.cells(tool, args, workload: workload, mode: mode, in: dir, name: "whole") }]
                + (1...parts).map { i in
                    {
                        try self.cells(
                            tool,
                            args + ["--shard", "\(i)/\(parts)"],
                            workload: workload,
                            mode: mode,
                            in: dir,
                            name: "part\(i)"
                        )
                    }
                }
        )
        let whole = Set(runs[0])
        var union = Set<String>()
        var total = 0
        for (i, part) in zip(1...parts, runs.dropFirst()) {
            XCTAssertFalse(part.isEmpty, "\(tool) shard \(i)/\(parts) is empty")
            total += part.count
            union.formUnion(part)
        }
        XCTAssertEqual(total, union.count, "\(tool): shards overlap")
        XCTAssertEqual(union, whole, "\(tool): shards do not cover the matrix")
    }

    func testThrottleShards() throws {
        try assertShardsPartition("bench-throttle", ["--quick", "--seeds", "2"], workload: "throttle", mode: "sim")
    }

    func testClockShards() throws {
        try assertShardsPartition(
            "bench-clock",
            ["--scenario", "none,leap-second,step-plus-1h", "--no-read-cost"],
            workload: "clock",
            mode: "sim"
        )
    }

    func testAtomicsShards() throws {
        try assertShardsPartition(
            "bench-atomics",
            [
                "--scenario", "increment,flag", "--variant", "pthread-mutex,atomic", "--threads", "1,2",
                "--cs-work", "0", "--duration", "0.01", "--warmup", "0", "--seeds", "1", "--probe-duration", "0",
            ],
            workload: "atomics",
            mode: "live"
        )
    }

    func testBadShardSpecs() throws {
        let cases = ["3/2", "0/0", "a/b", "0/3", "1/"].flatMap { spec in
            ["bench-throttle", "bench-atomics", "bench-clock"].map { (spec, $0) }
        }
        // Each case is a process refusing its arguments: all of them side by side.
        let results = try concurrently(cases.map { spec, tool in { try ExecutableRunner.run(tool, ["--shard", spec, "--quick"]) } })
        for ((spec, tool), r) in zip(cases, results) {
            XCTAssertNotEqual(r.status, 0, "\(tool) --shard \(spec)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(tool) --shard \(spec): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--shard"), "\(tool): \(r.stderr)")
        }
    }
}
