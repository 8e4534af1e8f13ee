import Foundation
import OptionalPackages
import Records
import XCTest

/// Runs the built `bench-atomics` binary and checks its exit codes, messages and files.
final class BenchAtomicsEndToEndTests: XCTestCase {
    /// Runs the built binary with jemalloc's preload variables cleared unless a test sets them.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ExecutableRunner.Result {
        var env = ["LD_PRELOAD": "", "PATTERNBENCH_JEMALLOC_PRELOADED": ""]
        for (k, v) in environment { env[k] = v }
        return try ExecutableRunner.run("bench-atomics", arguments, environment: env)
    }

    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "bench-atomics-e2e-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// A tiny matrix: fast enough for a unit-test run, still every code path.
    var tiny: [String] {
        ["--duration", "0.02", "--warmup", "0", "--seeds", "1", "--probe-duration", "0.01", "--quiet"]
    }

    func testBadInputIsOneLineAndANonZeroExitNeverATrap() throws {
        let cases: [[String]] = [
            ["--threads", "0"], ["--threads=-2"], ["--threads", "1025"], ["--threads", "many"],
            ["--variant", "os-unfair-lock"], ["--scenario", "compare-and-swap"],
            ["--duration", "0"], ["--duration", "nan"], ["--duration", "-1"], ["--warmup", "inf"], ["--duration", "0x10"],
            ["--warmup", "1e999"],
            ["--cs-work", "5 parsecs"], ["--gap-work", "-50ns"], ["--allocator", "tcmalloc"],
            ["--variant", "c-atomic", "--scenario", "flag"],
        ]
        let output = temporaryFolder()
        for arguments in cases {
            let result = try run(arguments + ["--output", output])
            XCTAssertEqual(result.reason, .exit, "\(arguments) must exit, not trap")
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("bench-atomics: error: "), "\(arguments): \(result.stderr)")
        }
    }

    func testMissingJemallocNamesThePackageToInstall() throws {
        let result = try run(
            ["--allocator", "jemalloc", "--output", temporaryFolder()] + tiny,
            environment: ["PATTERNBENCH_JEMALLOC_LIBRARY": "libjemalloc-not-here.so.9"]
        )
        XCTAssertEqual(result.reason, .exit)
        XCTAssertEqual(result.status, 69, "EX_UNAVAILABLE")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("libjemalloc"), result.stderr)
    }

    func testListNamesEveryStrategyAndOperation() throws {
        let result = try run(["--list"])
        XCTAssertEqual(result.status, 0)
        for name in [
            "pthread-mutex", "nslock", "dispatch-queue", "mutex", "spinlock", "pthread-mutex-adaptive", "atomic",
            "unsynchronized", "c-pthread-mutex", "c-atomic", "increment", "read-mostly", "flag", "transition",
            "dictionary-update", "array-append-drain",
        ] {
            XCTAssertTrue(result.stdout.contains(name), name)
        }
    }

    func testASmallRunWritesTheSharedSchemaAndTheSummary() throws {
        let output = temporaryFolder()
        let result = try run(
            [
                "--scenario", "increment,flag", "--variant", "pthread-mutex,atomic,c-pthread-mutex,c-atomic,unsynchronized",
                "--threads", "1,2", "--output", output,
            ] + tiny
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("increment — cs_work_ns 0, gap_work_ns 0"), result.stdout)
        XCTAssertTrue(result.stdout.contains("co-scheduling probe:"), result.stdout)
        XCTAssertTrue(result.stdout.contains("uncontended pthread-mutex wrapper vs C"), result.stdout)

        let csv = try String(contentsOfFile: output + "/atomics.csv", encoding: .utf8)
        XCTAssertTrue(
            csv.hasPrefix(
                "run_id,workload,scenario,variant,origin,mode,seed,repetition,threads,cs_work_ns,gap_work_ns,metric,value,unit,host\n"
            )
        )

        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: output + "/atomics.json")))
        XCTAssertEqual(document.workload, "atomics")
        XCTAssertEqual(document.factorNames, ["threads", "cs_work_ns", "gap_work_ns"])
        XCTAssertEqual(document.metadata.parameters["allocator"], "system")
        XCTAssertNotNil(document.metadata.parameters["co_scheduling_probe"])
        XCTAssertNotNil(document.metadata.parameters["uncontended_pthread_mutex_vs_c"])
        XCTAssertTrue(document.notes.contains { $0.hasPrefix("co-scheduling probe:") })

        let records = document.records
        XCTAssertTrue(records.allSatisfy { $0.mode == "live" && $0.workload == "atomics" })
        let metrics = Set(records.map(\.metric))
        for metric in [
            "ns_per_op", "ops_per_s", "jain_fairness", "max_min_share_ratio", "lost_updates",
            "voluntary_ctx_switches", "involuntary_ctx_switches", "cpu_time_ms", "cpu_ns_per_op", "co_scheduled_fraction",
            "ratio_to_atomic", "ratio_to_c",
        ] {
            XCTAssertTrue(metrics.contains(metric), metric)
        }
        XCTAssertFalse(metrics.contains("allocs_per_op"), "the system allocator's allocations are not counted")
        for r in records where r.metric == "lost_updates" && r.variant != "unsynchronized" {
            XCTAssertEqual(r.value, 0, "\(r.variant) \(r.scenario) threads=\(r.factors["threads"] ?? "?")")
        }
        // The C reference exists for increment only.
        XCTAssertFalse(records.contains { $0.variant.hasPrefix("c-") && $0.scenario != "increment" })
    }

    func testJemallocCountsAllocationsOrFailsCleanly() throws {
        let output = temporaryFolder()
        let result = try run(
            [
                "--allocator", "jemalloc", "--scenario", "array-append-drain", "--variant", "pthread-mutex",
                "--threads", "1", "--output", output,
            ] + tiny
        )
        guard try OptionalPackage.jemalloc.check() else {
            // Without it the run still fails cleanly ("unavailable"); what it counts is not tested.
            XCTAssertEqual(result.status, 69, result.stderr)
            throw XCTSkip(OptionalPackage.jemalloc.skipMessage)
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: output + "/atomics.json")))
        XCTAssertEqual(document.metadata.parameters["allocator"], "jemalloc")
        XCTAssertNotNil(document.metadata.parameters["jemalloc_version"]?.stringValue)
        // Appending grows the array and draining hands its buffer away: this operation allocates.
        let allocs = document.records.filter { $0.metric == "allocs_per_op" }.map(\.value)
        let bytes = document.records.filter { $0.metric == "bytes_per_op" }.map(\.value)
        XCTAssertFalse(allocs.isEmpty)
        XCTAssertTrue(allocs.allSatisfy { $0 > 0 }, "\(allocs)")
        XCTAssertTrue(bytes.allSatisfy { $0 > 0 }, "\(bytes)")
    }

    /// With `--jobs 2` two "uncontended" cells used to run side by side, and Signal's
    /// one process-wide lock made them contend (40–45 voluntary context switches a repetition).
    /// Every timed cell now runs alone, so a thread alone on the lock never sleeps on it. That the
    /// lock *is* shared between cells of one process — what made the old schedule wrong — is
    /// `SignalGlobalLockTests.testDifferentAtomicsContendOnTheSharedLockOnly`.
    func testTimedCellsNeverShareTheMachineWhateverJobsSays() throws {
        let output = temporaryFolder()
        let result = try run(
            [
                "--scenario", "increment,read-mostly", "--variant", "pthread-mutex,signal-global-lock", "--threads", "1",
                "--cs-work", "0", "--gap-work", "0", "--seeds", "5", "--jobs", "2", "--duration", "0.1", "--warmup", "0.01",
                "--probe-duration", "0", "--quiet", "--output", output,
            ]
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: output + "/atomics.json")))
        XCTAssertEqual(document.metadata.parameters["jobs"], 2)
        let switches = document.records.filter { $0.metric == "voluntary_ctx_switches" && $0.variant == "signal-global-lock" }
        XCTAssertEqual(switches.count, 10, "2 scenarios × 5 repetitions")
        for r in switches {
            XCTAssertEqual(r.value, 0, "\(r.scenario) repetition \(r.repetition): a lone thread slept on the global lock")
        }
    }
}
