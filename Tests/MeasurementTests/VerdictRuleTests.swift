import Foundation
import TestSupport
import XCTest

@testable import Records
@testable import Verdicts

/// The Swift twin of verdicts.py: the same numbers as the Python rule (and SciPy) on known samples.
/// That the two twins agree on real run pairs is tested by analysis/tests/test_verdict_agreement.py.
final class VerdictRuleTests: XCTestCase {
    func testMannWhitneyExactAndNormal() {
        // Completely separated 5 v 5: exact two-sided p = 2 / C(10, 5) = 2 / 252.
        XCTAssertEqual(VerdictRule.mannWhitney(base: [1, 2, 3, 4, 5], new: [6, 7, 8, 9, 10]), 2.0 / 252, accuracy: 1e-12)
        XCTAssertEqual(VerdictRule.mannWhitney(base: [6, 7, 8, 9, 10], new: [1, 2, 3, 4, 5]), 2.0 / 252, accuracy: 1e-12)
        // Ties: the normal approximation with tie and continuity corrections (SciPy: 0.029480007049421303).
        XCTAssertEqual(VerdictRule.mannWhitney(base: [1, 2, 2, 3, 4, 5], new: [2, 6, 7, 8, 9, 10]), 0.029480007049421303, accuracy: 1e-12)
        // 30 a side: beyond the exact limit (SciPy asymptotic: 0.00012477053789099963).
        let base = (0..<30).map(Double.init)
        XCTAssertEqual(VerdictRule.mannWhitney(base: base, new: base.map { $0 + 10.5 }), 0.00012477053789099963, accuracy: 1e-12)
        XCTAssertEqual(VerdictRule.mannWhitney(base: [3, 3, 3, 3, 3], new: [3, 3, 3, 3, 3]), 1)
    }

    func testHodgesLehmannAndItsInterval() {
        let (shift, low, high) = VerdictRule.hodgesLehmann(base: [1, 2, 3, 4, 5], new: [6, 7, 8, 9, 10])
        XCTAssertEqual(shift, 5)
        XCTAssertEqual(low, 2)
        XCTAssertEqual(high, 8)
        XCTAssertEqual(VerdictRule.critical(8, 8), 13)
        XCTAssertEqual(VerdictRule.critical(30, 30), 317)
        XCTAssertEqual(VerdictRule.critical(3, 3), -1, "3 v 3 cannot give a 95 % interval")
    }

    func testBenjaminiHochberg() {
        let adjusted = VerdictRule.benjaminiHochberg([0.01, 0.04, 0.03, 0.5])
        XCTAssertEqual(adjusted[0], 0.04, accuracy: 1e-15)
        XCTAssertEqual(adjusted[1], 0.04 * 4 / 3, accuracy: 1e-15)
        XCTAssertEqual(adjusted[2], 0.04 * 4 / 3, accuracy: 1e-15)
        XCTAssertEqual(adjusted[3], 0.5)
    }

    /// One run a side: a clear +25 % is `inconclusive` without a floor, `worse` with one it clears,
    /// `no detectable change` with one it does not. Five runs a side: judged on run medians, no floor.
    func testUnitsAndNoiseFloor() {
        let base = (0..<10).map { 2.0 + Double($0) * 0.01 }
        let slow = base.map { $0 * 1.25 }
        var ev = [VerdictRule.evidence(base: ["a": base], new: ["b": slow])]
        VerdictRule.adjust(&ev)
        XCTAssertEqual(ev[0].unit, .repetitions)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: true, minimumEffect: 0.01, floor: nil), .inconclusive)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.05), .worse)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: false, minimumEffect: 0.01, floor: 0.05), .better)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.40), .same)

        let runs = Dictionary(uniqueKeysWithValues: (0..<6).map { ("r\($0)", [2.0 + Double($0) * 0.01, 2.1]) })
        let slowRuns = runs.mapValues { $0.map { $0 * 1.25 } }
        var byRun = [VerdictRule.evidence(base: runs, new: slowRuns.reduce(into: [:]) { $0["n" + $1.key] = $1.value })]
        VerdictRule.adjust(&byRun)
        XCTAssertEqual(byRun[0].unit, .runs)
        XCTAssertEqual(byRun[0].nBase, 6)
        XCTAssertEqual(VerdictRule.decide(byRun[0], lowerIsBetter: true, minimumEffect: 0.15, floor: nil), .worse)
        XCTAssertEqual(VerdictRule.decide(byRun[0], lowerIsBetter: true, minimumEffect: 0.30, floor: nil), .same)

        // 3 a side (the default bench-atomics run): only complete separation beyond the floor counts.
        // The bar is the largest of the tolerance, the floor and the repetitions' spread (max/min − 1).
        var three = [VerdictRule.evidence(base: ["a": [3, 3.1, 3.2]], new: ["b": [4, 4.1, 4.2]])]
        VerdictRule.adjust(&three)
        XCTAssertEqual(VerdictRule.decide(three[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.2), .worse)
        XCTAssertEqual(VerdictRule.decide(three[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.3), .same, "4 − 3.2 is +25 %")
        XCTAssertEqual(
            VerdictRule.decide(three[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.2, noisier: "NEW ran at load 5"),
            .inconclusive,
            "a side noisier than the floor was learned at"
        )
        // A side whose repetitions scatter more than the separation: 1…3 spreads 200 %, so 4 − 3 (+33 %) is not enough.
        var scattered = [VerdictRule.evidence(base: ["a": [1, 2, 3]], new: ["b": [4, 5, 6]])]
        VerdictRule.adjust(&scattered)
        XCTAssertEqual(VerdictRule.decide(scattered[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0.2), .same)
        var overlap = [VerdictRule.evidence(base: ["a": [1, 2, 4.5]], new: ["b": [4, 5, 6]])]
        VerdictRule.adjust(&overlap)
        XCTAssertEqual(VerdictRule.decide(overlap[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0), .same)
        var few = [VerdictRule.evidence(base: ["a": [1, 2]], new: ["b": [4, 5]])]
        VerdictRule.adjust(&few)
        XCTAssertEqual(VerdictRule.decide(few[0], lowerIsBetter: true, minimumEffect: 0.01, floor: 0), .tooFew)
    }

    func testFloorKeyMatchesPython() {
        let cpu = CPUIdentity(vendor: "AuthenticAMD", family: 25, model: 1, stepping: 1, microcode: "0x1")
        XCTAssertEqual(
            VerdictRule.floorKey(fingerprint: cpu, workload: "atomics", metric: "m", factors: ["threads": "1", "cs_work_ns": "0"]),
            "AuthenticAMD family 25 model 1 stepping 1 microcode 0x1|atomics|m|cs_work_ns=0,threads=1"
        )
        XCTAssertEqual(
            VerdictRule.floorKey(fingerprint: nil, workload: "atomics", metric: "m", factors: ["threads": "1"], variant: "nslock"),
            "None|atomics|m|threads=1|variant=nslock"
        )
    }

    /// Version 2 floors are per variant: a noisy variant's floor does not blind another of the same
    /// shape. The control: a version-1 file (no `version`) holds one floor per shape, which is still
    /// read and applies to every variant. A newer version is refused (exit 2), not guessed at.
    func testFloorsPerVariantAndFileVersions() throws {
        let dir = try temporaryFolder("floors")
        let shape = ["threads": "1"]
        func key(_ variant: String?) -> String {
            VerdictRule.floorKey(fingerprint: nil, workload: "w", metric: "m", factors: shape, variant: variant)
        }
        func write(_ json: String) -> String {
            let path = dir + "/f.json"
            _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
            return path
        }
        let v2 = try VerdictRule.loadFloors(
            path: write(
                #"{"version": 2, "floors": [{"key": "\#(key("noisy"))", "floor": 0.4}, {"key": "\#(key("quiet"))", "floor": 0.03}, "#
                    + #"{"key": "\#(key("lucky"))", "floor": 0.001}]}"#
            )
        )
        func floor(_ floors: [String: Double], _ variant: String) -> Double? {
            VerdictRule.floor(in: floors, fingerprint: nil, workload: "w", metric: "m", factors: shape, variant: variant)
        }
        XCTAssertEqual(floor(v2, "quiet"), 0.03)
        XCTAssertEqual(floor(v2, "noisy"), 0.4)
        XCTAssertEqual(floor(v2, "lucky"), 0.03, "never below the median of the shape's variant floors")
        XCTAssertNil(floor(v2, "never-learned"))
        let v1 = try VerdictRule.loadFloors(path: write(#"{"rule": "pb-verdict-1", "floors": [{"key": "\#(key(nil))", "floor": 0.4}]}"#))
        XCTAssertEqual(floor(v1, "quiet"), 0.4, "a version-1 floor holds for every variant of its shape")
        // +25 % with 3 a side clears the quiet variant's own floor, not the shape's largest.
        var ev = [VerdictRule.evidence(base: ["a": [2.0, 2.01, 2.02]], new: ["b": [2.5, 2.51, 2.52]])]
        VerdictRule.adjust(&ev)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: true, minimumEffect: 0.01, floor: floor(v2, "quiet")), .worse)
        XCTAssertEqual(VerdictRule.decide(ev[0], lowerIsBetter: true, minimumEffect: 0.01, floor: floor(v1, "quiet")), .same)
        XCTAssertThrowsError(try VerdictRule.loadFloors(path: write(#"{"version": 3, "floors": []}"#))) { error in
            let gate = error as? GateError
            XCTAssertEqual(gate?.exitCode, 2)
            XCTAssertTrue(gate?.message.contains("format version 3, this build reads 1 to 2") == true, gate?.message ?? "")
        }
        // A file the user named that is not there is an input error; the default's absence is no floors.
        XCTAssertThrowsError(try VerdictRule.loadFloors(path: dir + "/absent.json", required: true)) { error in
            XCTAssertEqual((error as? GateError)?.message, "noise floor file \(dir)/absent.json: no such file")
        }
        XCTAssertEqual(try VerdictRule.loadFloors(path: dir + "/absent.json"), [:])
        XCTAssertThrowsError(try VerdictRule.loadFloors(path: write(#"{"version": 2, "floors": [{"key": 5}]}"#)))
    }
}
