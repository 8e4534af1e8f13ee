import Foundation
import XCTest

/// Bad inputs that once trapped, hung or were ignored, through the real binaries: each is one capped, escaped error line and a
/// sysexits code, never a trap, a hang or a silently ignored flag.
final class InputRobustnessEndToEndTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try ExecutableRunner.temporaryDirectory("robust") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func assertOneLineError(
        _ tool: String,
        _ args: [String],
        code: Int32,
        _ expected: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let r = try ExecutableRunner.run(tool, args + ["--quiet", "--output", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, code, "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(expected), "\(args): expected '\(expected)' in \(r.stderr)", file: file, line: line)
        // BenchMain.maximumErrorCharacters (500) plus "…" and the newline: a quoted file never floods the log.
        XCTAssertLessThanOrEqual(r.stderr.count, "\(tool): error: ".count + 502, file: file, line: line)
        XCTAssertFalse(r.stderr.unicodeScalars.dropLast().contains { $0.value < 0x20 }, r.stderr.debugDescription, file: file, line: line)
    }

    func testThrottleFlagsThatTrappedOrDidNothing() throws {
        let trace = try write("t.csv", "time_ms,rows\n0,1\n50,2\n")
        let cases: [([String], String)] = [
            (["--fixed-interval-ms", "1e-7"], "--fixed-interval-ms must be at least 0.001 ms"),
            (["--debounce-ms", "0.0000004"], "--debounce-ms must be at least 0.001 ms"),
            (["--max-age-ms", "4e-7"], "--max-age-ms must be at least 0.001 ms"),
            (["--duration", "1e-9"], "--duration must be at least 0.1 s"),
            (["--rate", "0.01", "--duration", "10"], "fewer than one"),
            (["--rate", "0.001", "--scenario", "steady"], "the run would be empty"),
            (["--trace", trace, "--rate", "5"], "--rate cannot be combined with --trace"),
            (["--trace", trace, "--duration", "5"], "--duration cannot be combined with --trace"),
            (["--scenario", "storm-fast", "--duration", "30"], "has no effect on storm-fast"),
        ]
        for (args, expected) in cases { try assertOneLineError("bench-throttle", args, code: 64, expected) }
        // A shorter --duration does cut a storm: still accepted.
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--scenario", "storm-fast", "--duration", "2", "--variant", "immediate", "--seeds", "1", "--quiet", "--output", dir.path]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testTraceFilesLooseNumbersGarbageAndGzip() throws {
        let nul = try write("nul.csv", "time_ms,rows\n5\u{0}junk,1\n")
        let hex = try write("hex.csv", "time_ms,rows\n0x10,1\n")
        let span = try write("span.csv", "time_ms,rows\n0,1\n1e12,1\n")
        let noisy = try write("noisy.csv", "\u{1B}[2J\u{1B}[31m" + String(repeating: "garbage ", count: 400) + "\n")
        let long = try write("long.csv", String(repeating: "garbage ", count: 2000) + "\n")
        try assertOneLineError("bench-throttle", ["--trace", nul], code: 65, "nul.csv:2: time_ms: '5\\0junk' is not a number")
        try assertOneLineError("bench-throttle", ["--trace", hex], code: 65, "hex.csv:2: time_ms: '0x10' is not a number")
        try assertOneLineError("bench-throttle", ["--trace", span], code: 65, "PATTERNBENCH_MAX_TRACE_SPAN_MS")
        try assertOneLineError("bench-throttle", ["--trace", noisy], code: 65, "noisy.csv:1: expected header")
        try assertOneLineError("bench-throttle", ["--trace", long], code: 65, "long.csv:1: line is longer than 4096 bytes")
        // A sparse gigabyte with no line break after the header: rejected after one buffer.
        let huge = try write("huge.csv", "time_ms,rows\n")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        try assertOneLineError("bench-throttle", ["--trace", huge], code: 65, "huge.csv:2: line is longer than 4096 bytes")

        var text = "time_ms,rows\n"
        for i in 0..<2000 { text += "\(i * 5),\(i % 4 + 1)\n" }
        let plain = try write("replay.csv", text)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        var outputs: [String] = []
        for path in [plain, plain + ".gz"] {
            let r = try ExecutableRunner.run(
                "bench-throttle",
                [
                    "--trace", path, "--device", "fast", "--variant", "immediate,frame-budget", "--quiet", "--output",
                    dir.appendingPathComponent("o-\(outputs.count)").path,
                ]
            )
            XCTAssertEqual(r.status, 0, r.stderr)
            outputs.append(r.stdout.replacingOccurrences(of: "replay.csv", with: "replay"))
        }
        XCTAssertEqual(outputs[0], outputs[1], "a gzip trace replays exactly like the plain one")
    }

    func testAtomicsListsAndAmountsAreStrict() throws {
        let cases: [([String], String)] = [
            (["--threads", ""], "--threads has an empty item"),
            (["--threads", "1,,2"], "--threads has an empty item"),
            (["--threads", "0x10"], "--threads must be whole numbers"),
            (["--threads", "+4"], "--threads must be whole numbers"),
            (["--cs-work", "0x10ns"], "--cs-work takes amounts"),
            (["--cs-work", "1e2ns"], "--cs-work takes amounts"),
            (["--gap-work", "5\u{1B}ns"], "--gap-work takes amounts"),
        ]
        for (args, expected) in cases { try assertOneLineError("bench-atomics", args, code: 64, expected) }
    }

    func testSkewFilesThatHungOrOverflowed() throws {
        let steps = try write("steps.csv", "at_s,kind,value,duration_s\n1,step,3155760000,\n2,step,3155760000,\n")
        try assertOneLineError(
            "bench-clock",
            ["--skew", steps, "--no-read-cost"],
            code: 65,
            "steps.csv:3: CLOCK_REALTIME would move +200 years"
        )
        let stop = try write("stop.csv", "at_s,kind,value,duration_s\n0,drift,-999999.9999,\n")
        let r = try ExecutableRunner.run(
            "bench-clock",
            ["--skew", stop, "--no-read-cost", "--client", "timeout,debounce-signal,debounce-article", "--quiet", "--output", dir.path]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
