import Foundation
import XCTest

/// No pattern module reads a clock of its own: live modes read time through the one injectable
/// clock (`MonotonicClock`, `SystemMonotonicClock` for the real one), so a test can drive them with
/// a `TestClock` and every live timing is on `CLOCK_MONOTONIC`. docs/architecture.md claims it and
/// names the exceptions; this scan of `Sources/` checks both. Every other read of a clock — CPU
/// time included, which no `MonotonicClock` gives — is an allow-list entry that says why.
final class LiveClockSourceScanTests: XCTestCase {
    /// Ways to read a clock other than through an injected `MonotonicClock`: wall and monotonic
    /// time, CPU time (`clock_gettime` of any clock id, `getrusage` and its CLockShim wrapper), and
    /// `SystemMonotonicClock`'s static read, which a `TestClock` cannot stand in for. Dispatch
    /// deadlines (`asyncAfter(deadline: .now() + d)`) are not here: they are the primitive a live
    /// mode measures, not a reading it records.
    static let clockReads = [
        "DispatchTime.now()", "DispatchWallTime", "uptimeNanoseconds", "Date()", "ContinuousClock", "SuspendingClock",
        "CLOCK_", "clock_gettime", "CFAbsoluteTimeGetCurrent", "gettimeofday", "systemUptime", "mach_absolute_time",
        "getrusage", "lks_current_thread_usage", "SystemMonotonicClock.raw()",
    ]

    /// Modules that are not patterns: the clock itself, and the layers that time the run (progress,
    /// child watchdogs, run ids), none of them a measured live mode.
    static let notPatterns: Set<String> = [
        "Simulation", "Processes", "Records", "Timelines", "Measurement", "Verdicts", "BenchCommandLine", "BenchSuite",
        "BuildProvenance",
    ]

    /// Files (or whole modules) allowed to name a clock, and why.
    static let allowed: [String: String] = [
        "Timekeeping": "bench-clock measures the clocks themselves (Date(), every CLOCK_* id, their read cost)",
        "Throttling/Live/Mailbox.swift":
            "its condition variable waits on CLOCK_MONOTONIC until an absolute deadline (SystemMonotonicClock.raw() + the wait)",
        "Caching/Live/LiveCacheBench.swift": "CPU time per operation: the calling thread's (CLOCK_THREAD_CPUTIME_ID)",
        "Locking/Contention/ContentionRunner.swift": "each worker's user and system time (getrusage(RUSAGE_THREAD))",
        "FanOut/Live/ChildOverhead.swift":
            "a child's cost: the process's CPU time (CLOCK_PROCESS_CPUTIME_ID) beside SystemMonotonicClock's static read",
        "Invalidation/Live/ChildLifetime.swift":
            "the role processes share raw CLOCK_MONOTONIC instants (start, deadline): an injected clock does not cross exec",
        "Invalidation/Live/InvalidationChild.swift": "a writer process stamps its writes on the instants every role process shares",
        "Invalidation/Live/LiveInvalidationRun.swift": "the parent's hard deadline over its role processes, on SystemMonotonicClock",
        "Invalidation/Live/LiveMainApp.swift": "the main-app role process's read cost, on SystemMonotonicClock directly",
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// Each line of `text` that reads a clock, comments left out.
    static func clockReadLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            return !code.hasPrefix("//") && clockReads.contains { code.contains($0) }
        }
    }

    func testNoPatternModuleReadsAClockOfItsOwn() throws {
        let fm = FileManager.default
        let modules = try fm.contentsOfDirectory(atPath: Self.sources.path).sorted().filter { name in
            // Pattern modules: capitalised Swift modules (C targets start with "C" and a capital).
            guard let first = name.first, first.isUppercase, !Self.notPatterns.contains(name) else { return false }
            return !(name.count > 1 && first == "C" && name.dropFirst().first!.isUppercase)
        }
        XCTAssertTrue(modules.contains("FanOut") && modules.contains("Lifecycle"), "\(modules)")
        var offenders: [String] = []
        var used: Set<String> = []
        for module in modules {
            if Self.allowed[module] != nil {
                used.insert(module)
                continue
            }
            let root = Self.sources.appendingPathComponent(module)
            for case let file as String in fm.enumerator(atPath: root.path)! where file.hasSuffix(".swift") {
                let relative = "\(module)/\(file)"
                let lines = Self.clockReadLines(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
                if lines.isEmpty { continue }
                if Self.allowed[relative] != nil {
                    used.insert(relative)
                    continue
                }
                offenders += lines.map { "\(relative): \($0.trimmingCharacters(in: .whitespaces))" }
            }
        }
        XCTAssertEqual(offenders, [], "read time through the injected MonotonicClock instead")
        XCTAssertEqual(Set(Self.allowed.keys).subtracting(used), [], "an allow-list entry that no longer reads a clock: remove it")
    }

    /// The control: the scan finds what bench-group's and bench-lifecycle's live modes used to do,
    /// a CPU-time read and a static read of the real clock.
    func testTheScanFindsADirectClockRead() {
        let before = """
            /// Times are ns since DispatchTime.now() (a comment is not a read).
            let origin = DispatchTime.now().uptimeNanoseconds
            func now() -> Int64 { clock.now().nanoseconds }
            """
        XCTAssertEqual(Self.clockReadLines(before), ["let origin = DispatchTime.now().uptimeNanoseconds"])
        XCTAssertEqual(Self.clockReadLines("let t = Date()"), ["let t = Date()"])
        XCTAssertEqual(Self.clockReadLines("    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)").count, 1)
        XCTAssertEqual(Self.clockReadLines("_ = lks_current_thread_usage(&usage)").count, 1)
        XCTAssertEqual(Self.clockReadLines("let start = SystemMonotonicClock.raw()").count, 1)
        XCTAssertEqual(Self.clockReadLines("let start = clock.now()"), [])
    }
}
