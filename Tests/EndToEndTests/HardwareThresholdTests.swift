import Foundation
import XCTest

/// The hardware thresholds (ratios measured in the same run), asserted by XCTest only when asked:
///
/// - `PATTERNBENCH_HARDWARE_RESULTS=<folder>`: assert them on a results folder, e.g. the nightly
///   run's, so its CSV/JSON is checked by the same test runner as everything else;
/// - `PATTERNBENCH_HARDWARE=1`: run the hardware slices of bench-atomics and bench-clock from the
///   release build (`swift build -c release` first) and assert on those.
///
/// Never by default: timing on a shared machine is a benchmark's business, not a unit test's.
final class HardwareThresholdTests: XCTestCase {
    var thresholds: String { WorkloadTool.committedThresholds }

    func testHardwareThresholds() throws {
        let env = ProcessInfo.processInfo.environment
        var folder: URL
        if let given = env["PATTERNBENCH_HARDWARE_RESULTS"] {
            folder = URL(fileURLWithPath: given)
        } else if env["PATTERNBENCH_HARDWARE"] == "1" {
            let release = BenchGateTests.packageRoot.appendingPathComponent(".build/release")
            folder = try ExecutableRunner.temporaryDirectory("hardware")
            for (tool, args) in [
                (
                    "bench-atomics",
                    ["--scenario", "increment,different-atomics", "--threads", "1,8", "--cs-work", "0", "--gap-work", "0", "--seeds", "10"]
                ),
                ("bench-clock", ["--scenario", "none", "--variant", "date"]),
                (
                    "bench-cache",
                    [
                        "--mode", "live", "--operation", "get", "--capacity", "32,4000", "--threads", "1", "--variant", "lru,signal-2018",
                        "--seeds", "3",
                    ]
                ),
            ] {
                let r = try ExecutableRunner.run(tool, ["--quiet", "--output", folder.path] + args, directory: release)
                XCTAssertEqual(r.status, 0, "\(tool): \(r.stderr)")
            }
        } else {
            throw XCTSkip("hardware thresholds run only with PATTERNBENCH_HARDWARE=1 or PATTERNBENCH_HARDWARE_RESULTS=<folder>")
        }
        let r = try ExecutableRunner.run("bench-gate", [folder.path, "--thresholds", thresholds, "--no-baseline", "--only", "hardware"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let verdict = try JSONDecoder().decode(GateVerdictFile.self, from: Data(contentsOf: folder.appendingPathComponent("gate.json")))
        XCTAssertFalse(verdict.thresholds.isEmpty)
        XCTAssertEqual(verdict.thresholds.filter { $0.status != "pass" }.map(\.id), [], r.stdout)
    }
}
