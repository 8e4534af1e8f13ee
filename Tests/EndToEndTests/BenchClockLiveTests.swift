import Foundation
import OptionalPackages
import Records
import Testing

/// bench-clock's live mode for real, under libfaketime: a real −1 s step of the child's wall clock.
///
/// Swift Testing, not XCTest (`swift test` within 180 s): each test waits out a 4 s live
/// run, and Swift Testing runs them side by side, with the other waiting tests (each run on a
/// thread of its own, `onThread`), where XCTest ran them one after another. The bounds below are
/// about a 1 s clock step, far above what sharing 2 cores with a few mostly sleeping processes
/// costs. A failed expectation fails `swift test` as an XCTest failure does.
@Suite(.requires(.faketime))
struct BenchClockLiveTests {

    /// A live run of bench-clock with `arguments` into a fresh folder: its exit, stderr and records.
    static func liveRun(_ arguments: [String]) async throws -> (status: Int32, stderr: String, records: [ResultRecord]) {
        try await onThread {
            let folder = try ExecutableRunner.temporaryDirectory("bench-clock-live")
            defer { try? FileManager.default.removeItem(at: folder) }
            let r = try ExecutableRunner.run("bench-clock", arguments + ["--output", folder.path])
            let records =
                r.status == 0 ? try RunDocument.decode(Data(contentsOf: folder.appendingPathComponent("clock.json"))).records : []
            return (r.status, r.stderr, records)
        }
    }

    /// Why the shim exists (wolfcw/libfaketime#378): without it, libfaketime turns libdispatch's
    /// absolute timerfd deadlines into wall-clock ones, and the 1 ms poll timer stalls for as long
    /// as the wall clock was stepped back (1 s here; an hour for a −1 h step, i.e. a hang).
    @Test func withoutTheShimLibdispatchTimersStallAtAStepBack() async throws {
        let r = try await Self.liveRun([
            "--mode", "live", "--scenario", "leap-second", "--live-duration", "4", "--no-read-cost", "--quiet",
            "--client", "timeout", "--live-without-shim",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let gap = r.records.first { $0.metric == "max_poll_gap_ms" }?.value
        #expect(r.records.first { $0.metric == "timerfd_shim_loaded" }?.value == 0)
        #expect((gap ?? 0) > 900)
    }

    /// The `faketime` wrapper refuses to start when its pid's shared-memory name is left in
    /// /dev/shm by an earlier wrapper killed with SIGKILL; the run starts it again (the child never
    /// ran). A stand-in wrapper on PATH fails its first `fails` starts, then runs the real one.
    /// Control: failing every start, the run fails with the wrapper's message after 1 + 3 starts.
    @Test(arguments: [(1, Int32(0), 2), (9, Int32(70), 4)])
    func aWrapperThatCannotStartIsStartedAgain(fails: Int, status: Int32, starts: Int) async throws {
        let refusal = "However, you may LD_PRELOAD libfaketime without using this wrapper."  // faketime.c's
        let real = try #require(FaketimeNames.wrapper)
        let bin = try ExecutableRunner.temporaryDirectory("faketime-stand-in")
        defer { try? FileManager.default.removeItem(at: bin) }
        let script = """
            #!/bin/sh
            n=$(cat "\(bin.path)/starts" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "\(bin.path)/starts"
            if [ "$n" -le \(fails) ]; then
              echo "faketime: shm_open: File exists" >&2
              echo "system call. \(refusal)" >&2
              exit 1
            fi
            exec \(real) "$@"
            """
        let wrapper = bin.appendingPathComponent("faketime")
        try script.write(to: wrapper, atomically: true, encoding: .utf8)
        #expect(chmod(wrapper.path, 0o755) == 0)
        let out = bin.appendingPathComponent("out")
        let r = try await onThread {
            try ExecutableRunner.run(
                "bench-clock",
                [
                    "--mode", "live", "--scenario", "none", "--live-duration", "4", "--no-read-cost", "--client", "timeout", "--quiet",
                    "--output", out.path,
                ],
                environment: ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
            )
        }
        #expect(r.status == status, "\(r.stderr)")
        let started = try String(contentsOf: bin.appendingPathComponent("starts"), encoding: .utf8)
        #expect(started.trimmingCharacters(in: .whitespacesAndNewlines) == "\(starts)")
        if status != 0 { #expect(r.stderr.contains(refusal), "\(r.stderr)") }
    }

    /// Live mode for real under libfaketime: a real −1 s step of this process's wall clock breaks
    /// the Date()- and CLOCK_REALTIME-based clients while the monotonic ones hold.
    @Test func liveLeapSecondUnderFaketime() async throws {
        let r = try await Self.liveRun([
            "--mode", "live", "--scenario", "leap-second", "--live-duration", "4", "--no-read-cost", "--quiet",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        func value(_ variant: String, _ client: String, _ metric: String) throws -> Double {
            try #require(
                r.records.first { $0.variant == variant && $0.factors["client"] == client && $0.metric == metric && $0.mode == "live" }?
                    .value,
                "\(variant) \(client) \(metric)"
            )
        }
        #expect(try value("harness", "harness", "timerfd_shim_loaded") == 1)
        #expect(try value("harness", "harness", "max_poll_gap_ms") < 500, "libdispatch's 1 ms timer kept running through the step")
        #expect(try value("harness", "harness", "wall_offset_error_ms") < 5)
        for wall in ["date", "realtime"] {
            #expect(try value(wall, "duration-meter", "max_abs_error_us") > 900_000, "\(wall)")
            #expect(try value(wall, "timeout", "timeouts_late") > 0, "\(wall)")
            #expect(try value(wall, "call-duration", "max_abs_error_us") > 900_000, "\(wall)")
        }
        for mono in ["monotonic", "monotonic-raw", "boottime"] {
            #expect(try value(mono, "duration-meter", "negative_durations") == 0, "\(mono)")
            // Real scheduling noise only: far below the 1 s step.
            #expect(try value(mono, "duration-meter", "max_abs_error_us") < 250_000, "\(mono)")
            #expect(try value(mono, "timeout", "timeout_error_ms") < 250, "\(mono)")
            #expect(try value(mono, "call-duration", "max_abs_error_us") < 250_000, "\(mono)")
        }
    }
}
