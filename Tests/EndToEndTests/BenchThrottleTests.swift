import Foundation
import Records
import Testing
import Timelines
import XCTest

/// bench-throttle as a user runs it: files written, formats printed, bad input refused.
final class BenchThrottleTests: XCTestCase {
    let bench = WorkloadTool("throttle")

    func testQuickRunWritesCSVAndJSON() throws {
        let dir = try temporaryFolder("throttle")
        let r = try ExecutableRunner.run("bench-throttle", ["--quick", "--quiet", "--scenario", "storm-slow,steady", "--output", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("storm-slow"))
        XCTAssertTrue(r.stdout.contains("frame-budget"))
        let csv = try String(contentsOf: dir.appendingPathComponent("throttle.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n")
        XCTAssertEqual(lines.first, "run_id,workload,scenario,variant,origin,mode,seed,repetition,metric,value,unit,host")
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 12 })
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("throttle.json")))
        XCTAssertEqual(doc.records.count, lines.count - 1)
        XCTAssertEqual(Set(doc.records.map(\.variant)).count, 8)
        XCTAssertEqual(doc.metadata.parameters["mode"], "sim")
        XCTAssertFalse(doc.metadata.commandLine.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testSameSeedSameCSVValues() throws {
        func values(_ seed: String) throws -> [String] {
            try bench.csvValues(["--quick", "--scenario", "mmpp", "--seed", seed])
        }
        XCTAssertEqual(try values("5"), try values("5"))
        XCTAssertNotEqual(try values("5"), try values("6"))
    }

    func testTraceReplayAndEventsTimeline() throws {
        let dir = try temporaryFolder("trace")
        let trace = dir.appendingPathComponent("mine.csv")
        try "time_ms,rows\n0,5\n30,16\n60,16\n90,250\n400,1\n".write(to: trace, atomically: true, encoding: .utf8)
        let events = dir.appendingPathComponent("events.csv")
        let r = try ExecutableRunner.run(
            "bench-throttle",
            [
                "--trace", trace.path, "--device", "slow", "--variant", "immediate,frame-budget",
                "--events", events.path, "--output", dir.path, "--quiet",
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("trace-mine-slow"))
        let timeline = try String(contentsOf: events, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(timeline.first.map(String.init), TimelineRecord.csvHeader(factorNames: []))
        XCTAssertTrue(
            timeline.dropFirst().allSatisfy {
                $0.contains(",throttle,trace-mine-slow,") && $0.contains(",sim,1,0,") && $0.contains(",update,")
            }
        )
        XCTAssertTrue(timeline.contains { $0.contains(",immediate,") && $0.contains(",update,250,1,") }, "the 250-row commit is a reset")
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("throttle.json")))
        let commits = doc.records.filter { $0.metric == "commits" }.map(\.value)
        XCTAssertEqual(commits, [5, 5])
        // The trace is the run's arrival model: recorded as such, with its size, span and checksum.
        guard case .object(let summary)? = doc.metadata.parameters["trace_summary"] else { return XCTFail("no trace_summary") }
        XCTAssertEqual(summary["model"], .string("trace"))
        XCTAssertEqual(summary["commits"], .number(5))
        XCTAssertEqual(summary["span_s"], .number(0.401))
        guard case .string(let checksum)? = summary["checksum"] else { return XCTFail("no checksum") }
        XCTAssertTrue(checksum.hasPrefix("fnv1a64:"))
    }

    func testListShowsScenariosAndVariants() throws {
        let r = try ExecutableRunner.run("bench-throttle", ["--list"])
        XCTAssertEqual(r.status, 0)
        for name in ["storm-slow", "signal-adaptive", "frame-budget", "debounce-last"] { XCTAssertTrue(r.stdout.contains(name), name) }
    }

    /// Every bad input: one line on stderr naming the problem, a non-zero exit, no trap.
    func testBadInputGetsOneLineErrors() throws {
        let dir = try temporaryFolder("bad")
        let unsorted = dir.appendingPathComponent("unsorted.csv")
        try "time_ms,rows\n10,1\n5,1\n".write(to: unsorted, atomically: true, encoding: .utf8)
        let empty = dir.appendingPathComponent("empty.csv")
        try "".write(to: empty, atomically: true, encoding: .utf8)
        let malformed = dir.appendingPathComponent("malformed.csv")
        try "time_ms,rows\n1,1\n2,abc\n".write(to: malformed, atomically: true, encoding: .utf8)
        let readOnly = dir.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnly.path)
        let cases =
            WorkloadTool.cases(
                """
                --scenario nope                | unknown --scenario 'nope'
                --variant fastest              | unknown --variant 'fastest'
                --seed abc                     | --seed
                --seeds 0                      | --seeds
                --rate=-5                      | --rate must be a positive finite number
                --rate -5                      | --rate
                --rate nan                     | The value 'nan' is invalid for '--rate <per-s>': not a decimal number
                --rate 1e999                   | --rate must be a positive finite number
                --fixed-interval-ms 0          | --fixed-interval-ms must be a positive finite number
                --duration inf                 | The value 'inf' is invalid for '--duration <s>': not a decimal number
                --duration 0x10                | The value '0x10' is invalid for '--duration <s>': not a decimal number
                --max-age-ms 0x1p-2            | The value '0x1p-2' is invalid for '--max-age-ms <max-age-ms>': not a decimal number
                --vsync-hz 0                   | --vsync-hz
                --pipeline observers           | --pipeline must be one of observer, conversation, got 'observers'
                --shard 3/2                    | --shard
                """
            ) + [
                (["--trace", dir.appendingPathComponent("missing.csv").path], "missing.csv: no such file"),
                (["--trace", empty.path], "empty.csv: is empty"),
                (["--trace", unsorted.path], "unsorted.csv:3: time_ms: 5 is earlier than the line before"),
                (["--trace", malformed.path], "malformed.csv:3: rows: 'abc' is not a whole number"),
                (["--output", "/proc/cannot/write"], "cannot write /proc/cannot/write"),
                (["--device", "toaster", "--trace", malformed.path], "unknown --device 'toaster'"),
            ]
        // A case naming its own --output keeps it; the others get a folder each.
        try bench.assertOneLineErrors(cases, appending: ["--quick", "--quiet"])
    }
}

/// Live mode on real threads: short, and asserting structure, never speed.
@Suite struct BenchThrottleLiveTests {
    /// Live mode replays the simulated trace on real threads, 1 s per item. Swift Testing, not
    /// XCTest (`swift test` within 180 s): waited out side by side with the other waiting
    /// tests (on a thread of its own, `onThread`).
    @Test func liveModeReportsLiveBesideSimulated() async throws {
        let run = try await WaitedRun(
            "bench-throttle",
            ["--mode", "live", "--scenario", "storm-fast", "--variant", "immediate,frame-budget", "--duration", "1", "--quiet"],
            document: "throttle.json"
        )
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stdout.contains("live versus simulated"))
        let doc = try #require(run.document)
        #expect(Set(doc.records.map(\.mode)) == ["sim", "live"])
        let commits = doc.records.filter { $0.metric == "commits" }
        #expect(Set(commits.map(\.value)).count == 1, "live replays exactly the simulated trace")
        let p99 = doc.comparisons.filter { $0.metric == "latency_p99_ms" }
        #expect(Set(p99.map(\.variant)) == ["immediate", "frame-budget"])
        #expect(p99.allSatisfy { $0.live > 0 && $0.sim > 0 })
        #expect(doc.records.filter { $0.mode == "live" && $0.metric == "undelivered" }.map(\.value) == [0, 0])
    }
}
