import Foundation
import TestSupport
import XCTest

@testable import Records
@testable import Verdicts

final class GateTests: XCTestCase {
    func rec(
        _ variant: String,
        _ metric: String,
        _ value: Double,
        seed: UInt64 = 1,
        rep: Int = 0,
        mode: String = "sim",
        scenario: String = "s"
    ) -> ResultRecord {
        ResultRecord(
            runID: "r",
            workload: "w",
            scenario: scenario,
            variant: variant,
            mode: mode,
            seed: seed,
            repetition: rep,
            metric: metric,
            value: value,
            unit: "u",
            host: "h"
        )
    }

    func threshold(
        _ id: String,
        variant: String = "a",
        metric: String = "m",
        aggregate: Threshold.Aggregate? = nil,
        bound: Threshold.Bound? = nil,
        compare: Threshold.Comparison? = nil
    ) -> Threshold {
        Threshold(
            id: id,
            kind: .deterministic,
            workload: "w",
            scenario: "*",
            variant: variant,
            excludeVariants: nil,
            modeOverride: nil,
            metric: metric,
            factors: nil,
            aggregate: aggregate,
            bound: bound,
            compare: compare,
            reason: "r"
        )
    }

    func testBoundsAndComparisonsPassAndFail() throws {
        let records = [
            rec("a", "m", 1, seed: 1), rec("a", "m", 3, seed: 2, rep: 1), rec("b", "m", 2, seed: 1), rec("b", "m", 2, seed: 2, rep: 1),
        ]
        let outcomes = try ThresholdCheck.evaluate(
            [
                threshold("median-le", bound: .init(op: .le, value: 2)),
                threshold("all-le", aggregate: .all, bound: .init(op: .le, value: 2)),
                threshold("median-vs-b", compare: .init(op: .le, variant: "b", metric: nil, factor: nil)),
                threshold("all-vs-b", aggregate: .all, compare: .init(op: .le, variant: "b", metric: nil, factor: nil)),
                threshold("scaled", aggregate: .all, compare: .init(op: .le, variant: "b", metric: nil, factor: 1.5)),
            ],
            on: records
        )
        XCTAssertEqual(outcomes.map(\.status), [.pass, .fail, .pass, .fail, .pass])
        XCTAssertTrue(outcomes[3].detail.contains("1 of 2 failing"), outcomes[3].detail)
    }

    func testUnknownMetricIsAnErrorAndMissingWorkloadIsSkipped() {
        XCTAssertThrowsError(try ThresholdCheck.evaluate([threshold("typo", metric: "ltency")], on: [rec("a", "m", 1)])) { error in
            XCTAssertEqual((error as? GateError)?.exitCode, 2)
            XCTAssertTrue("\(error)".contains("'ltency' is not a metric of workload w"))
        }
        var t = threshold("other")
        t.workload = "clock"
        XCTAssertEqual(try ThresholdCheck.evaluate([t], on: [rec("a", "m", 1)]).map(\.status), [.skipped])
    }

    /// A hardware (live) threshold on a folder with the workload's virtual-time runs only — the
    /// nightly's gated slices run bench-cache in sim mode, its live get costs come from the full
    /// matrix — selects nothing: an input error unless the file marks it optional, then skipped
    /// with its reason (not an unknown metric: that made every nightly A/B gate exit 2).
    /// With live records present, an unknown metric is still an error.
    func testLiveThresholdOnSimOnlyRecordsIsSkippedOnlyWhenOptional() throws {
        var live = threshold("live-only", metric: "get_ns")
        live.kind = .hardware  // mode live
        XCTAssertThrowsError(try ThresholdCheck.evaluate([live], on: [rec("a", "m", 1)])) { error in
            XCTAssertEqual((error as? GateError)?.exitCode, 2)
            XCTAssertTrue("\(error)".contains("threshold live-only selects no result row (no live records of workload w)"), "\(error)")
        }
        live.optional = "the gated slices run w in virtual time only"
        let outcomes = try ThresholdCheck.evaluate([live], on: [rec("a", "m", 1)])
        XCTAssertEqual(outcomes.map(\.status), [.skipped])
        XCTAssertTrue(outcomes[0].detail.contains("no live records of workload w"), outcomes[0].detail)
        XCTAssertTrue(outcomes[0].detail.contains("(optional: the gated slices run w in virtual time only)"), outcomes[0].detail)
        XCTAssertThrowsError(try ThresholdCheck.evaluate([live], on: [rec("a", "m", 1), rec("a", "m", 1, mode: "live")])) { error in
            XCTAssertTrue("\(error)".contains("'get_ns' is not a metric of workload w"), "\(error)")
        }
    }

    /// A typo'd variant, scenario, factor or comparison variant selects nothing and is an
    /// input error naming the threshold; the same threshold spelled right passes (the control).
    func testThresholdThatSelectsNothingIsAnInputError() throws {
        let records = [rec("a", "m", 1), rec("b", "m", 2)]
        var right = threshold("ok", bound: .init(op: .le, value: 1))
        XCTAssertEqual(try ThresholdCheck.evaluate([right], on: records).map(\.status), [.pass], "control")
        var typos: [(Threshold, String)] = []
        var t = right
        t.id = "t"
        t.variant = "aa"
        typos.append((t, "no sim m for s/aa"))
        t = right
        t.id = "t"
        t.scenario = "ss"
        typos.append((t, "no sim m for ss/a"))
        t = right
        t.id = "t"
        t.factors = ["threads": "1"]
        typos.append((t, "no sim records with threads=1"))
        t = threshold("t", compare: .init(op: .le, variant: "bb", metric: nil, factor: nil))
        typos.append((t, "no m for bb to compare with"))
        for (typo, why) in typos {
            XCTAssertThrowsError(try ThresholdCheck.evaluate([right, typo], on: records)) { error in
                XCTAssertEqual((error as? GateError)?.exitCode, 2)
                XCTAssertTrue("\(error)".contains("threshold t selects no result row (\(why))"), "\(error)")
            }
        }
        // Items of the workload failed: not an input error, the verdict fails on the failures.
        right.variant = "aa"
        let outcomes = try ThresholdCheck.evaluate([right], on: records, failedWorkloads: ["w"])
        XCTAssertEqual(outcomes.map(\.status), [.skipped])
        XCTAssertTrue(outcomes[0].detail.contains("not checked: items of w failed"), outcomes[0].detail)
    }

    /// A gated hardware metric that selects no live row, and a baseline row these results lack,
    /// are input errors (optional metrics: a note); the matching selection passes.
    func testHardwareMetricAndBaselineRowsThatSelectNothing() throws {
        func metric(scenario: String?, optional: String? = nil) -> HardwareMetric {
            HardwareMetric(
                workload: "w",
                metric: "ratio",
                scenario: scenario,
                factors: nil,
                tolerance: 0.1,
                alpha: 0.05,
                direction: .lowerIsBetter,
                reason: "r",
                optional: optional
            )
        }
        let live = [rec("a", "ratio", 1, mode: "live"), rec("a", "m", 1)]
        XCTAssertEqual(try SelectionCheck.hardwareMetrics([metric(scenario: "s")], current: live, skipping: [], source: "f"), [])
        XCTAssertThrowsError(try SelectionCheck.hardwareMetrics([metric(scenario: "sx")], current: live, skipping: [], source: "f")) {
            XCTAssertTrue("\($0)".contains("hardware_metrics[0] (w/ratio/sx) selects no result row"), "\($0)")
        }
        let notes = try SelectionCheck.hardwareMetrics(
            [metric(scenario: "sx", optional: "only nightly")],
            current: live,
            skipping: [],
            source: "f"
        )
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes[0].contains("optional: only nightly"), notes[0])
        XCTAssertEqual(try SelectionCheck.hardwareMetrics([metric(scenario: "sx")], current: live, skipping: ["w"], source: "f"), [])

        try SelectionCheck.baselineRows(current: live, reference: live, skipping: [], referenceName: "baseline")
        XCTAssertThrowsError(
            try SelectionCheck.baselineRows(current: live, reference: live + [rec("b", "m", 3)], skipping: [], referenceName: "baseline")
        ) { XCTAssertTrue("\($0)".contains("baseline row w/s/b sim seed 1 repetition 0 m selects no result row"), "\($0)") }
        let moreCells = live + [rec("b", "ratio", 1, mode: "live")]
        func checkCells(current: [ResultRecord], reference: [ResultRecord]) throws {
            try SelectionCheck.referenceCells(
                current: current,
                reference: reference,
                metrics: [metric(scenario: nil)],
                skipping: [],
                referenceName: "A/B base"
            )
        }
        try checkCells(current: moreCells, reference: live)
        XCTAssertThrowsError(try checkCells(current: live, reference: moreCells)) {
            XCTAssertTrue("\($0)".contains("A/B base cell w/s/b ratio selects no result row"), "\($0)")
        }
    }

    /// A verdict says why it failed: failed items, thresholds, changed values, each counted.
    func testVerdictSaysWhy() {
        let failed = FailedItem(workload: "w", item: "s/a", reason: "failed: exit status 134")
        let verdict = GateVerdict(results: "r", baseline: nil, thresholds: [], comparison: nil, failedItems: [failed])
        XCTAssertEqual(verdict.verdict, .regression)
        XCTAssertEqual(verdict.why, ["1 item of w failed to run"])
        XCTAssertTrue(verdict.summaryMarkdown.contains("| w | s/a | failed: exit status 134 |"), verdict.summaryMarkdown)
        let clean = GateVerdict(results: "r", baseline: nil, thresholds: [], comparison: nil)
        XCTAssertEqual(clean.verdict, .pass, "control")
        XCTAssertEqual(clean.why, [])
    }

    func testDeterministicComparisonReportsEveryChange() {
        let base = [rec("a", "m", 1), rec("a", "n", 2)]
        let same = BaselineComparison.compare(current: base, baseline: base, hardwareMetrics: [])
        XCTAssertEqual(same.changes, [])
        let changed = BaselineComparison.compare(
            current: [rec("a", "m", 1.0000001), rec("a", "o", 5)],
            baseline: base,
            hardwareMetrics: []
        )
        XCTAssertEqual(changed.deterministicRegressions.count, 2, "m changed, n disappeared")
        XCTAssertEqual(changed.changes.count, 3, "o is new")
    }

    /// The hardware comparison must flag a 25 % slowdown and must not flag noise alone. One run a
    /// side: the rule (VerdictRule) needs a noise floor for that, and without one says inconclusive.
    func testHardwareComparisonCatchesA25PercentSlowdownButNotNoise() {
        let metric = HardwareMetric(
            workload: "w",
            metric: "ratio",
            scenario: nil,
            factors: nil,
            tolerance: 0.10,
            alpha: 0.01,
            direction: .lowerIsBetter,
            reason: "r"
        )
        // ±5 % noise, fixed (a seeded pattern, not a random generator: the test gives the same answer every time).
        let pattern = [0.97, 1.02, 0.99, 1.04, 0.96, 1.01, 1.03, 0.98, 1.05, 0.95]
        func sample(_ center: Double, shift: Int = 0) -> [Double] { (0..<10).map { center * pattern[($0 + shift) % 10] } }
        func records(_ values: [Double]) -> [ResultRecord] {
            values.enumerated().map { rec("a", "ratio", $0.element, rep: $0.offset, mode: "live") }
        }
        let floors = [VerdictRule.floorKey(fingerprint: nil, workload: "w", metric: "ratio", factors: [:]): 0.05]
        let base = records(sample(2))
        func gate(_ now: [ResultRecord], floors: [String: Double] = floors) -> [BaselineComparison.HardwareResult.Status] {
            BaselineComparison.compare(current: now, baseline: base, hardwareMetrics: [metric], floors: floors).hardware.map(\.status)
        }
        XCTAssertEqual(gate(records(sample(2.5))), [.regression])
        XCTAssertEqual(gate(records(sample(1.6))), [.improvement])
        XCTAssertEqual(gate(records(sample(2.04, shift: 3))), [.ok], "+2 % in ±5 % noise is below the 10 % tolerance")
        XCTAssertEqual(gate(records([2.5, 2.5])), [.inconclusive])
        // The control: no floor for this CPU and metric, one run a side: the same +25 % is not called.
        XCTAssertEqual(gate(records(sample(2.5)), floors: [:]), [.inconclusive])
        let why = BaselineComparison.compare(current: records(sample(2.5)), baseline: base, hardwareMetrics: [metric], floors: floors)
            .hardware[0]
        XCTAssertTrue(why.why?.contains("10 / 10 repetitions") == true && why.why?.contains("noise floor 0.05") == true, why.why ?? "")
        XCTAssertEqual(why.change ?? 0, 0.25, accuracy: 1e-9)
    }

    func testThresholdFileErrorsNameTheField() throws {
        let dir = try temporaryFolder("thresholds")
        func check(_ json: String, _ expected: String, line: UInt = #line) throws {
            let path = dir + "/t.json"
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try ThresholdFileReader.read(path: path), line: line) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)", line: line)
                XCTAssertEqual((error as? GateError)?.exitCode, 2, line: line)
            }
        }
        let head = #"{"schema_version": 1, "hardware_metrics": [], "thresholds": ["#
        let t = #""id": "x", "kind": "deterministic", "workload": "w", "scenario": "*", "variant": "*", "metric": "m", "reason": "r""#
        try check(head + "{" + t + #", "bound": {"op": "<=", "value": "ten"}}]}"#, "thresholds[0].bound.value")
        try check(head + "{" + t + #", "bound": {"op": "=<", "value": 1}}]}"#, "thresholds[0].bound.op")
        try check(head + "{" + t + "}]}", "exactly one of bound and compare")
        try check(#"{"schema_version": 2, "hardware_metrics": [], "thresholds": []}"#, "schema_version: expected 1, found 2")
        try check("{", "not valid JSON")
    }
}

/// The CPU fingerprint decides whether hardware numbers are compared with the baseline at all.
final class HardwareFingerprintTests: XCTestCase {
    static let zen3 = CPUIdentity(vendor: "AuthenticAMD", family: 25, model: 1, stepping: 1, microcode: "0x1000065")
    static let zen5 = CPUIdentity(vendor: "AuthenticAMD", family: 26, model: 2, stepping: 1, microcode: "0xb002116")

    func document(_ workload: String, cpu: CPUIdentity?, values: [Double], variant: String = "pthread-mutex") -> RunDocument {
        var host = HostInfo(hostname: "h", cpuModel: "AMD EPYC", logicalCores: 2, memoryBytes: 1, kernel: "k", os: "o")
        host.fingerprint = cpu
        let meta = RunMetadata(
            gitCommit: nil,
            swiftVersion: "6.3",
            buildConfiguration: "release",
            host: host,
            commandLine: [],
            parameters: [:]
        )
        let records = values.enumerated().map {
            ResultRecord(
                runID: "r",
                workload: workload,
                scenario: "s",
                variant: variant,
                mode: "live",
                seed: UInt64($0.offset + 1),
                repetition: $0.offset,
                metric: "ratio",
                value: $0.element,
                unit: "x",
                host: "h"
            )
        }
        return RunDocument(
            runID: "r",
            workload: workload,
            createdUTC: "t",
            metadata: meta,
            factorNames: [],
            records: records,
            summaries: []
        )
    }

    let metric = HardwareMetric(
        workload: "w",
        metric: "ratio",
        scenario: nil,
        factors: nil,
        tolerance: 0.15,
        alpha: 0.05,
        direction: .lowerIsBetter,
        reason: "r"
    )

    func gate(current: RunDocument, baseline: RunDocument, sameJob: Bool = false) -> BaselineComparison {
        let fit = HardwareComparability.check(
            current: [current],
            reference: [baseline],
            workloads: ["w"],
            referenceName: "baseline",
            sameJob: sameJob
        )
        // A floor for zen3 only, as results/noise-floor.json would hold one per CPU.
        let known = Set([current.metadata.host.fingerprint, baseline.metadata.host.fingerprint].compactMap { $0 })
        let cpu = known.count == 1 ? known.first : nil
        return BaselineComparison.compare(
            current: current.records,
            baseline: baseline.records,
            hardwareMetrics: [metric],
            notComparable: fit.notComparable,
            notes: fit.notes,
            floors: [VerdictRule.floorKey(fingerprint: Self.zen3, workload: "w", metric: "ratio", factors: [:]): 0.05],
            fingerprints: cpu.map { ["w": $0] } ?? [:]
        )
    }

    /// The case met on a family 26 host: every ratio 40 % lower on the baseline's CPU (another microarchitecture).
    /// Same fingerprint: that is a regression (the comparison can fail). Another CPU, or a
    /// baseline that does not say which CPU: not comparable, one note, no regression.
    func testAnotherCPUIsNotComparableButTheSameCPUIsGated() {
        let now = (0..<10).map { 3.2 + Double($0) * 0.01 }
        let elsewhere = now.map { $0 * 0.6 }
        let same = gate(current: document("w", cpu: Self.zen3, values: now), baseline: document("w", cpu: Self.zen3, values: elsewhere))
        XCTAssertEqual(same.hardware.map(\.status), [.regression])
        XCTAssertEqual(same.notes, [])

        let other = gate(current: document("w", cpu: Self.zen3, values: now), baseline: document("w", cpu: Self.zen5, values: elsewhere))
        XCTAssertEqual(other.hardware.map(\.status), [.notComparable])
        XCTAssertEqual(other.hardwareRegressions, [])
        XCTAssertEqual(other.notes.count, 1)
        XCTAssertTrue(other.notes[0].contains("family 26"), other.notes[0])
        XCTAssertTrue(other.notes[0].contains("family 25"), other.notes[0])

        let old = gate(current: document("w", cpu: Self.zen3, values: now), baseline: document("w", cpu: nil, values: elsewhere))
        XCTAssertEqual(old.hardware.map(\.status), [.notComparable])
        XCTAssertTrue(old.notes[0].contains("does not identify"), old.notes[0])

        // Microcode is part of the identity; calibration is not.
        var patched = Self.zen3
        patched.microcode = "0x1000066"
        XCTAssertEqual(
            gate(current: document("w", cpu: Self.zen3, values: now), baseline: document("w", cpu: patched, values: now)).hardware.map(
                \.status
            ),
            [.notComparable]
        )
    }

    /// A/B: the base ran in the same job. A base built before fingerprints is taken as this host
    /// (with a note) and a 25 % slowdown is still caught; two known, different CPUs are not compared.
    func testABBaseFromBeforeFingerprintsIsStillGated() {
        let base = (0..<10).map { 2.0 + Double($0) * 0.01 }
        let slow = base.map { $0 * 1.25 }
        let ab = gate(current: document("w", cpu: Self.zen3, values: slow), baseline: document("w", cpu: nil, values: base), sameJob: true)
        XCTAssertEqual(ab.hardware.map(\.status), [.regression])
        XCTAssertEqual(ab.notes.count, 1)
        let moved = gate(
            current: document("w", cpu: Self.zen3, values: slow),
            baseline: document("w", cpu: Self.zen5, values: base),
            sameJob: true
        )
        XCTAssertEqual(moved.hardware.map(\.status), [.notComparable])
    }

    func testCPUIdentityFromProcCpuinfo() {
        let x86 =
            "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\nstepping\t: 1\nmicrocode\t: 0xb002116\n\nprocessor\t: 1\nvendor_id\t: Other\n"
        XCTAssertEqual(
            CPUIdentity.parse(cpuinfo: x86),
            CPUIdentity(vendor: "AuthenticAMD", family: 26, model: 2, stepping: 1, microcode: "0xb002116")
        )
        XCTAssertEqual(CPUIdentity.field("model name", in: x86), "AMD EPYC")
        let arm = "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n"
        XCTAssertEqual(
            CPUIdentity.parse(cpuinfo: arm),
            CPUIdentity(vendor: "0x41", family: 8, model: 0xd0c, stepping: 0x31, microcode: "none")
        )
        XCTAssertNil(CPUIdentity.parse(cpuinfo: "processor\t: 0\nvendor_id\t: AuthenticAMD\n"), "an incomplete identity is unknown")
    }

    /// New keys are snake_case; documents written before them still decode (as unknown).
    func testHostInfoKeysAndOldDocuments() throws {
        let host = HostInfo.current
        XCTAssertNotNil(host.calibration)
        let c = host.calibration!
        for v in [c.atomicAddNs, c.mutexPairNs, c.clockReadNs] { XCTAssertTrue(v > 0 && v < 100_000, "\(c)") }
        let json = String(decoding: try JSONEncoder().encode(host), as: UTF8.self)
        for key in [
            "cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping", "cpu_microcode", "atomic_add_ns", "mutex_pair_ns",
            "clock_read_ns",
        ]
        where host.fingerprint != nil || key.hasSuffix("_ns") {
            XCTAssertTrue(json.contains("\"\(key)\""), key)
        }
        let old = #"{"hostname":"vm","cpu_model":"AMD EPYC","logical_cores":2,"memory_bytes":1,"kernel":"Linux","os":"Debian"}"#
        let decoded = try JSONDecoder().decode(HostInfo.self, from: Data(old.utf8))
        XCTAssertNil(decoded.fingerprint)
        XCTAssertNil(decoded.calibration)
        let meta =
            #"{"git_commit":null,"swift_version":"6.3","build_configuration":"release","host":\#(old),"command_line":[],"parameters":{}}"#
        XCTAssertNil(try JSONDecoder().decode(RunMetadata.self, from: Data(meta.utf8)).gitDirty)
    }

    /// Loads that differ markedly are named, with both sides' numbers; close loads, saturated
    /// loads and documents without a load (older files) say nothing. The metadata keys round-trip.
    func testHostLoadDifferenceIsNoted() throws {
        func loaded(_ start: Double?, _ end: Double?) -> RunDocument {
            var d = document("w", cpu: Self.zen3, values: [1, 2, 3])
            d.metadata.loadAverage1mStart = start
            d.metadata.loadAverage1mEnd = end
            return d
        }
        func notes(_ current: RunDocument, _ reference: RunDocument) -> [String] {
            HostLoadCheck.notes(current: [current], reference: [reference], workloads: ["w"], referenceName: "A/B base")
        }
        let marked = notes(loaded(5.1, 6.3), loaded(0.4, 0.6))
        XCTAssertEqual(marked.count, 1)
        XCTAssertTrue(
            marked[0].contains("0.5 (0.4–0.6) in the A/B base") && marked[0].contains("5.7 (5.1–6.3) in these results"),
            marked[0]
        )
        XCTAssertEqual(notes(loaded(0.6, 0.8), loaded(0.4, 0.6)), [], "a small difference is not marked")
        XCTAssertEqual(notes(loaded(25, 25), loaded(20, 20)), [], "both saturated: not 1.5x apart")
        XCTAssertEqual(notes(loaded(nil, nil), loaded(0.4, 0.6)), [], "an older document records no load")
        let json = String(decoding: try JSONEncoder().encode(loaded(1.5, 2.5).metadata), as: UTF8.self)
        XCTAssertTrue(json.contains("\"load_average_1m_start\":1.5") && json.contains("\"load_average_1m_end\":2.5"), json)
        XCTAssertNotNil(HostLoad.oneMinute(), "Linux has /proc/loadavg")
    }

    func testCSVParserReadsQuotedFields() {
        XCTAssertEqual(ResultsCSVCheck.parse("a,\"b, \"\"c\"\"\",d\n1,,\"x\ny\"\n"), [["a", "b, \"c\"", "d"], ["1", "", "x\ny"]])
    }
}
