import Foundation
import XCTest

/// bench-cache as a user runs it: files, determinism across --jobs, thresholds, errors.
final class BenchCacheTests: XCTestCase {
    var thresholds: String { WorkloadTool.committedThresholds }

    func csvRows(_ folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("cache.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// One seed of the default matrix (the run the gate's XCTest layer gates too): every metric
    /// present, every deterministic cache threshold evaluated (none skipped) and passing.
    func testDefaultMatrixMeetsItsThresholds() throws {
        let dir = try temporaryFolder("cache")
        let out = dir.appendingPathComponent("run")
        let r = try SharedRuns.copy(defaultOf: "cache", into: out)
        XCTAssertTrue(r.stdout.contains("s3-fifo vs lru on hit ratio"), r.stdout)
        let rows = try csvRows(out)
        XCTAssertEqual(
            rows.first,
            "run_id,workload,scenario,variant,origin,mode,seed,repetition,context,capacity,threads,metric,value,unit,host"
        )
        for metric in ["hit_ratio", "reference_hit_ratio", "miss_storm_reads", "rewarm_ms", "latency_p50_us", "latency_p99_us", "clears"] {
            XCTAssertTrue(rows.contains { $0.contains(",\(metric),") }, metric)
        }
        let gate = try ExecutableRunner.run(
            "bench-gate",
            [out.path, "--thresholds", thresholds, "--no-baseline", "--only", "deterministic"]
        )
        XCTAssertEqual(gate.status, 0, gate.stdout + gate.stderr)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: out.appendingPathComponent("gate.json")))
        let mine = verdict.thresholds.filter { $0.workload == "cache" && !$0.id.hasPrefix("cache.live") }
        XCTAssertGreaterThanOrEqual(mine.count, 9)
        XCTAssertEqual(mine.filter { $0.status != "pass" }.map(\.id), [])
    }

    func testIdenticalForAnyJobs() throws {
        let dir = try temporaryFolder("cache")
        var tables: [[String]] = []
        for jobs in ["1", "3"] {
            let out = dir.appendingPathComponent("jobs\(jobs)")
            let r = try ExecutableRunner.run(
                "bench-cache",
                ["--quiet", "--quick", "--scenario", "chat-scroll,launch-rewarm", "--jobs", jobs, "--output", out.path]
            )
            XCTAssertEqual(r.status, 0, r.stderr)
            tables.append(
                WorkloadTool.deterministicColumns(try String(contentsOf: out.appendingPathComponent("cache.csv"), encoding: .utf8))
            )
        }
        XCTAssertFalse(tables[0].isEmpty)
        XCTAssertEqual(tables[0], tables[1])
    }

    /// A replayed trace: lru agrees with the reference, and the key column is read as written.
    func testTraceReplay() throws {
        let dir = try temporaryFolder("cache")
        let trace = dir.appendingPathComponent("reads.csv")
        var text = "key\n"
        for i in 0..<2000 { text += "k\((i * 7919) % 97 + (i % 5 == 0 ? 1000 : 0))\n" }
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("run")
        let r = try ExecutableRunner.run(
            "bench-cache",
            ["--quiet", "--trace", trace.path, "--capacity", "16,64", "--context", "main-app", "--output", out.path, "--format", "csv"]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try csvRows(out).filter { $0.contains(",trace-reads,lru,platform,") }
        let hit = rows.filter { $0.contains(",hit_ratio,") }.map { $0.split(separator: ",")[12] }
        let reference = rows.filter { $0.contains(",reference_hit_ratio,") }.map { $0.split(separator: ",")[12] }
        XCTAssertEqual(hit.count, 2)  // column 12: value (schema 2 has the origin column)
        XCTAssertEqual(hit, reference)
    }

    func testBadInputIsOneLineError() throws {
        let dir = try temporaryFolder("cache")
        let bad = dir.appendingPathComponent("bad.csv")
        try "key\na\nb,c\n".write(to: bad, atomically: true, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["--capacity", "abc"], 64, "--capacity expects whole numbers"),
            (["--capacity=-1"], 64, "--capacity must be between 0 and 1000000"),
            (["--threads", "2"], 64, "apply to --mode live only"),
            (["--mode", "live", "--threads", "17"], 64, "--threads must be between 1 and 16"),
            (["--mode", "live", "--scenario", "zipf-0.9"], 64, "apply to --mode sim only"),
            (["--scenario", "nope"], 64, "unknown --scenario 'nope'"),
            (["--context", "watch"], 64, "unknown --context 'watch'"),
            (["--reads", "0"], 64, "--reads must be between 1"),
            (["--trace", dir.appendingPathComponent("none.csv").path], 66, "no such file"),
            (["--trace", bad.path], 65, "bad.csv:3: expected one column 'key', found 'b,c'"),
            (["--trace", bad.path, "--scenario", "zipf-0.9"], 64, "cannot be combined"),
            (["--allocator", "jemalloc"], 64, "--allocator applies to --mode live only"),
        ]
        // The cases side by side, each with its own output folder.
        let runs = try concurrently(
            cases.indices.map { i in
                {
                    try ExecutableRunner.run(
                        "bench-cache",
                        ["--quiet", "--output", dir.appendingPathComponent("out-\(i)").path] + cases[i].0
                    )
                }
            }
        )
        for ((args, code, expected), r) in zip(cases, runs) {
            XCTAssertEqual(r.status, code, "\(args): \(r.stderr)")
            XCTAssertEqual(r.reason, .exit, "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): expected '\(expected)' in \(r.stderr)")
        }
    }

    /// A tiny live run: the real implementations on real threads; signal-2018 (no lock) only alone.
    func testLiveSmoke() throws {
        let dir = try temporaryFolder("cache")
        let out = dir.appendingPathComponent("live")
        let r = try ExecutableRunner.run(
            "bench-cache",
            [
                "--quiet", "--mode", "live", "--seeds", "1", "--operation", "get,set,clear",
                "--capacity", "32,512", "--threads", "1,2", "--duration", "0.01",
                "--variant", "lru,signal-2018,signal-2021,nscache-corelibs", "--output", out.path,
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try csvRows(out)
        XCTAssertTrue(rows.contains { $0.contains(",live-get,signal-2021,signal,live,") && $0.contains(",512,2,get_ns,") })
        XCTAssertTrue(rows.contains { $0.contains(",live-set,nscache-corelibs,platform,live,") && $0.contains(",set_ns,") })
        XCTAssertTrue(rows.contains { $0.contains(",live-clear,lru,platform,live,") && $0.contains(",clear_us,") })
        XCTAssertFalse(rows.contains { $0.contains(",signal-2018,signal,live,") && $0.contains(",2,get_ns,") }, "signal-2018 has no lock")
    }

    /// `--list` labels every variant with its origin.
    func testListShowsOrigins() throws {
        let r = try ExecutableRunner.run("bench-cache", ["--list"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for expected in [
            "[platform] O(1) LRU", "[signal] Signal 2018", "[signal] Signal 2021", "[platform] Foundation's NSCache",
            "[ours] ours: S3-FIFO",
        ] {
            XCTAssertTrue(r.stdout.contains(expected), expected)
        }
    }
}
