import Foundation
import Records
import XCTest

/// Runs the built `bench-clock` binary and checks its exit codes, messages and files.
final class BenchClockEndToEndTests: XCTestCase {
    typealias Run = ExecutableRunner.Result

    /// Runs bench-clock; `environment` entries are set on top of this process's (empty removes).
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try ExecutableRunner.run("bench-clock", arguments, environment: environment)
    }

    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "bench-clock-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func assertOneLineError(_ r: Run, status: Int32, contains: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("bench-clock: error: "), r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(contains), r.stderr, file: file, line: line)
    }

    func testSimRunWritesTheSharedSchemaAndIsDeterministic() throws {
        let a = temporaryFolder(), b = temporaryFolder()
        let args = ["--scenario", "leap-second,strobe-50ms-500ms", "--no-read-cost", "--quiet", "--seed", "5"]
        let r1 = try run(args + ["--output", a])
        XCTAssertEqual(r1.status, 0, r1.stderr)
        XCTAssertTrue(r1.stdout.contains("scenario leap-second"))
        let r2 = try run(args + ["--output", b, "--format", "csv"])
        XCTAssertEqual(r2.status, 0, r2.stderr)
        let csvA = try String(contentsOfFile: a + "/clock.csv", encoding: .utf8)
        let csvB = try String(contentsOfFile: b + "/clock.csv", encoding: .utf8)
        XCTAssertTrue(csvA.hasPrefix("run_id,workload,scenario,variant,origin,mode,seed,repetition,client,metric,value,unit,host\n"))
        // Identical apart from the run id.
        func strip(_ csv: String) -> [String] {
            csv.split(separator: "\n").map { $0.split(separator: ",").dropFirst().joined(separator: ",") }
        }
        XCTAssertEqual(strip(csvA), strip(csvB))
        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: a + "/clock.json")))
        XCTAssertEqual(document.workload, "clock")
        XCTAssertEqual(document.factorNames, ["client"])
        XCTAssertEqual(Set(document.records.map { $0.factors["client"]! }).count, 8)
        XCTAssertEqual(Set(document.records.map(\.variant)), ["date", "realtime", "monotonic", "monotonic-raw", "boottime"])
        XCTAssertTrue(
            document.records.contains {
                $0.variant == "realtime" && $0.factors["client"] == "duration-meter" && $0.metric == "max_abs_error_us"
                    && $0.value > 999_000
            }
        )
    }

    func testSkewFileRuns() throws {
        let folder = temporaryFolder()
        let path = folder + "/my-skew.csv"
        try "at_s,kind,value,duration_s\n30,step,-2,\n50,slew,1000,20\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try run([
            "--skew", path, "--client", "duration-meter", "--variant", "realtime,monotonic-raw", "--no-read-cost", "--quiet", "--output",
            folder + "/out", "--format", "csv",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(",file:my-skew,realtime,platform,sim,"))
    }

    func testBadInputIsOneLineAndNonZero() throws {
        let folder = temporaryFolder()
        assertOneLineError(try run(["--scenario", "nope", "--output", folder]), status: 64, contains: "unknown --scenario 'nope'")
        assertOneLineError(try run(["--variant", "sundial", "--output", folder]), status: 64, contains: "unknown --variant 'sundial'")
        assertOneLineError(try run(["--client", "cron", "--output", folder]), status: 64, contains: "unknown --client 'cron'")
        assertOneLineError(
            try run(["--skew", folder + "/missing.csv", "--output", folder]),
            status: 66,
            contains: "missing.csv: no such file"
        )
        let bad = folder + "/bad.csv"
        try "at_s,kind,value,duration_s\n10,step,-1,\n20,slew,2000000,5\n".write(toFile: bad, atomically: true, encoding: .utf8)
        assertOneLineError(
            try run(["--skew", bad, "--output", folder]),
            status: 65,
            contains: "bad.csv:3: value: 2000000.0 ppm is beyond ±1000000 ppm"
        )
        try "at_s,kind,value,duration_s\n10,step,nan,\n".write(toFile: bad, atomically: true, encoding: .utf8)
        assertOneLineError(try run(["--skew", bad, "--output", folder]), status: 65, contains: "bad.csv:2: value: must be a finite number")
        try "at_s,kind,value,duration_s\ninf,step,1,\n".write(toFile: bad, atomically: true, encoding: .utf8)
        assertOneLineError(try run(["--skew", bad, "--output", folder]), status: 65, contains: "bad.csv:2: at_s: must be a finite number")
        assertOneLineError(try run(["--live-duration", "nan", "--output", folder]), status: 64, contains: "--live-duration")
        assertOneLineError(try run(["--mode", "sideways", "--output", folder]), status: 64, contains: "sideways")
    }

    func testLiveModeWithoutFaketimeNamesThePackage() throws {
        let r = try run(["--mode", "live", "--output", temporaryFolder()], environment: ["PATH": "/nonexistent"])
        assertOneLineError(r, status: 69, contains: "install the Debian package `faketime`")
    }

    func testListNamesEverything() throws {
        let r = try run(["--list"])
        XCTAssertEqual(r.status, 0)
        for name in ["leap-second", "strobe-50ms-500ms", "suspend-10min", "monotonic-raw", "adaptive-gate", "ttl-cache"] {
            XCTAssertTrue(r.stdout.contains(name), name)
        }
    }

    // The live runs under libfaketime are BenchClockLiveTests (Swift Testing, side by side).
}
