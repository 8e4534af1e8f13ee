import Foundation
import Records
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A user's variants that trap, hang and get signalled (suite-fixture's, with
/// `SUITE_FIXTURE_FAULTS` set): each fault costs only its own items, the rest is written, and no
/// process of the run outlives it — in virtual time as in live.
///
/// They were a separate package (Tests/Fixtures/FaultyVariants) that `swift test` built first,
/// compiling PatternBench a second time; a user's package built against this checkout is CI's
/// Examples/ step. Processes are tracked by the run's own process ID (its children in /proc),
/// never by name: other checkouts may run the same test at the same time.
///
/// Swift Testing, not XCTest (`swift test` within 180 s): most of these tests wait
/// (a 5 s item timeout, a control SIGKILLed at 10 s, children that must outlive their parent),
/// and Swift Testing runs the tests, and each test's runs and controls, side by side with the other
/// waiting tests, each run on a thread of its own (`onThread`). A failed expectation fails
/// `swift test` as an XCTest failure does.
@Suite struct UserPackageFaultTests {
    // MARK: Trap

    /// A user's throttler that traps in virtual time fails its items only: exit 70, the reason
    /// (the trap's message) in the results, every other variant's rows written. The control: the
    /// same run with isolation switched off dies of the trap and writes nothing.
    @Test func aSimTrapFailsOnlyItsItems() async throws {
        let args = ["throttle", "--quick", "--scenario", "steady", "--variant", "traps-on-tenth,every-third,signal-adaptive", "--quiet"]
        try await Self.runWithControl("sim-trap", args) { r, out, c, control in
            #expect(r.reason == .exit, "the run exits, it does not trap")
            let d = try Self.expectFailsOnly("traps-on-tenth", "trapped", keeping: "every-third", r, out, "throttle")
            #expect(!d.complete)
            #expect(
                d.notes.contains { $0.hasPrefix("FAILED: steady traps-on-tenth") && $0.contains("TrapsOnTenth: a deliberate trap") },
                "\(d.notes)"
            )
            #expect(d.records.contains { $0.variant == "every-third" && $0.origin == "user" })
            #expect(d.records.contains { $0.variant == "signal-adaptive" })

            #expect(c.reason == .uncaughtSignal, "without isolation the trap takes the run down: \(c.stderr)")
            #expect(!FileManager.default.fileExists(atPath: control.appendingPathComponent("throttle.json").path))
        }
    }

    /// A user's cache's sim results are bit-identical in a child process (the default) and
    /// in-process (`PATTERNBENCH_NO_ISOLATION=1`): the sample's trip through JSON loses nothing.
    /// One seed (every scenario's cells): the control, another seed in-process, differs, so the
    /// comparison of values can fail.
    @Test func aUserCachesSimResultsAreBitIdenticalInAChild() async throws {
        func values(isolation: String, seed: String) async throws -> [String] {
            let out = try Self.folder("cache-identical-\(isolation)-\(seed)")
            defer { Self.remove(out) }
            let r = try await Self.run(
                ["cache", "--quick", "--variant", "insertion-order", "--seed", seed, "--seeds", "1", "--quiet", "--output", out.path],
                environment: ["PATTERNBENCH_NO_ISOLATION": isolation]
            )
            #expect(r.status == 0, "\(r.stderr)")
            let d = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("cache.json")))
            return d.records.map { r in
                let factors = r.factors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                return "\(r.scenario) \(r.repetition) \(factors) \(r.metric) \(r.value.bitPattern)"
            }
        }
        async let child = values(isolation: "", seed: "1")
        async let inProcess = values(isolation: "1", seed: "1")
        async let otherSeed = values(isolation: "1", seed: "2")
        let runs = try await [child, inProcess, otherSeed]
        #expect(runs[0].count > 20)
        #expect(runs[0] == runs[1])
        #expect(runs[1] != runs[2], "control: another seed gives other values")
    }

    /// The controls that trap in the run itself: without isolation, and without Swift's
    /// backtracer, which a trap in the parent would otherwise start (one was seen stuck on a socket
    /// for 191 s under load, holding the test's exit watch open); the test needs only the signal.
    static let trapControlEnvironment = ["PATTERNBENCH_NO_ISOLATION": "1", "SWIFT_BACKTRACE": "enable=no"]

    /// The case that started these tests: a user's cache whose `get` traps, in virtual time, beside `lru`.
    @Test func aSimCacheTrapFailsOnlyItsItems() async throws {
        let args = ["cache", "--quick", "--scenario", "zipf-0.9", "--variant", "trapping-cache,lru", "--quiet"]
        try await Self.runWithControl("cache-trap", args) { r, out, c, _ in
            let d = try Self.expectFailsOnly("trapping-cache", "trapped", keeping: "lru", r, out, "cache")
            #expect(d.notes.contains { $0.hasPrefix("FAILED:") && $0.contains("trapping-cache get traps") }, "\(d.notes)")

            #expect(c.reason == .uncaughtSignal, "\(c.stderr)")
        }
    }

    // MARK: Hang

    /// A user's throttler that never returns, in virtual time: killed at `--item-timeout`,
    /// reported as hung, the rest written. The control: without isolation nothing ends the item
    /// (the run is still going when the test ends it with SIGKILL). The two run side by side, so
    /// the test takes the control's 10 s, not 5 s + 10 s.
    @Test func aSimHangIsKilledAtTheItemTimeout() async throws {
        let args = [
            "throttle", "--quick", "--scenario", "steady", "--variant", "spins,every-third", "--jobs", "2", "--item-timeout", "5",
            "--quiet",
        ]
        let noIsolation = ["PATTERNBENCH_NO_ISOLATION": "1"]
        try await Self.runWithControl("sim-hang", args, controlEnvironment: noIsolation, controlSignal: (SIGKILL, 10)) { r, out, c, _ in
            try Self.expectFailsOnly("spins", "hung: killed after the --item-timeout of 5 s", keeping: "every-third", r, out, "throttle")
            #expect(r.childrenLeft == [], "every child was reaped")

            #expect(c.reason == .uncaughtSignal, "without isolation the hang outlasts the --item-timeout of 5 s: \(c.stderr)")
            #expect(c.status == SIGKILL)
        }
    }

    // MARK: SIGTERM, SIGINT

    /// SIGTERM while a user's item hangs in virtual time (the --item-timeout is 600 s) ends the
    /// run at once: the items that finished are written, marked incomplete, exit 143, the child
    /// gone. SIGINT does the same during a live hang. The control: the run was still going, its
    /// hung child alive, when the signal was sent. The two cases run side by side.
    @Test(arguments: [(SIGTERM, "sim", Int32(143)), (SIGINT, "live", Int32(130))])
    func aSignalEndsARunWithAHungUserItemAtOnce(signal: Int32, mode: String, status: Int32) async throws {
        let out = try Self.folder("signal-\(mode)")
        defer { Self.remove(out) }
        // The built-in variant runs in-process: the only child is the hung item's.
        var args = ["throttle", "--quick", "--scenario", "steady", "--variant", "signal-adaptive,spins", "--jobs", "2", "--quiet"]
        args += ["--mode", mode, "--output", out.path]
        if mode == "live" { args += ["--duration", "0.5"] }
        let s = try await onThread { [args] in
            let run = try Started(Self.faultyBench(), args)
            let children = try run.waitForChildren()
            Thread.sleep(forTimeInterval: 1)
            let wasRunning = run.isRunning
            let signalled = Date()
            kill(run.pid, signal)
            run.waitForExit(upTo: 60)
            let took = Date().timeIntervalSince(signalled)
            let left = children.subtracting(Self.gone(children, within: 5))
            for pid in left { kill(pid, SIGKILL) }  // a failing run's leftovers: not for the next test
            return (children: children, wasRunning: wasRunning, took: took, left: left, outcome: run.wait())
        }
        #expect(!s.children.isEmpty, "the hung item's child is running")
        #expect(s.wasRunning, "control: the run does not end by itself")
        let r = s.outcome
        #expect(s.left == [], "\(mode): no child outlives the run")
        #expect(r.status == status, "\(mode): \(r.stderr)")
        #expect(s.took < 30, "\(mode): the signal, not the 600 s --item-timeout, ended the run")
        #expect(r.stderr.contains("interrupted"), "\(r.stderr)")
        let d = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("throttle.json")))
        #expect(!d.complete)
        #expect(d.notes.first?.hasPrefix("INCOMPLETE") == true, "\(d.notes)")
        #expect(!d.records.contains { $0.variant == "spins" })
        if mode == "sim" { #expect(d.records.contains { $0.variant == "signal-adaptive" }, "finished items are written") }
    }

    // MARK: SIGKILL of the parent

    /// SIGKILL of the run while a user's item hangs live (and in virtual time): the child dies
    /// with it within a few seconds (Linux: PR_SET_PDEATHSIG), though nothing could clean up. The
    /// controls: the same live run with the parent-death watch off (`PATTERNBENCH_NO_PARENT_WATCH`)
    /// leaves the hung child running; and an ordinary orphan (a shell's `sleep`) outlives its
    /// SIGKILLed parent on this machine. The four cases run side by side, each on its own
    /// processes.
    @Test func sigkillOfTheRunTakesItsChildrenWithIt() async throws {
        async let liveWatched = Self.sigkilled(mode: "live", watched: true)
        async let simWatched = Self.sigkilled(mode: "sim", watched: true)
        async let liveUnwatched = Self.sigkilled(mode: "live", watched: false)
        async let orphans = Self.orphansOfASIGKILLedShell()
        for (mode, left) in try await [("live", liveWatched), ("sim", simWatched)] {
            #expect(left == [], "\(mode): the child outlived its SIGKILLed parent")
        }
        #expect(try await !liveUnwatched.isEmpty, "control: without the parent-death watch the hung child outlives the run")
        #expect(try await orphans.ended == [], "control: an ordinary child survives its parent's SIGKILL")
    }

    /// Starts a run whose only item spins, SIGKILLs it while the item runs, and returns its
    /// children still alive 5 s later (3 s for the control, unwatched), then kills those.
    static func sigkilled(mode: String, watched: Bool) async throws -> Set<pid_t> {
        let out = try folder("sigkill-\(mode)-\(watched)")
        defer { remove(out) }
        var args = ["throttle", "--quick", "--scenario", "steady", "--variant", "spins", "--quiet", "--mode", mode]
        args += ["--output", out.path]
        if mode == "live" { args += ["--duration", "0.5"] }
        return try await onThread { [args] in
            let run = try Started(faultyBench(), args, environment: watched ? [:] : ["PATTERNBENCH_NO_PARENT_WATCH": "1"])
            let children = try run.waitForChildren()
            // Past its start-up, where a child whose parent is already gone exits by itself:
            // the kill must land while the item runs (measured: without PR_SET_PDEATHSIG the
            // child then lives on, re-parented to PID 1). The item spins, so a child that has
            // used a second of CPU is in it; a fixed 2 s sleep was not enough when the tests that
            // run side by side share the cores.
            Started.waitForCPUTime(of: children, atLeast: 1, upTo: 60)
            kill(run.pid, SIGKILL)
            let left = children.subtracting(gone(children, within: watched ? 5 : 3))
            for pid in left {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
            _ = run.wait()
            return left
        }
    }

    /// A shell's `sleep` child, and which of it had ended 2 s after the shell was SIGKILLed.
    static func orphansOfASIGKILLedShell() async throws -> (orphans: Set<pid_t>, ended: Set<pid_t>) {
        try await onThread {
            let shell = try Started(URL(fileURLWithPath: "/bin/sh"), ["-c", "sleep 600 & wait"])
            let orphans = try shell.waitForChildren()
            kill(shell.pid, SIGKILL)
            let ended = gone(orphans, within: 2)
            for pid in orphans { kill(pid, SIGKILL) }
            _ = shell.wait()
            return (orphans, ended)
        }
    }

    // MARK: Helpers

    /// The fixture, built by `swift test` with the other executables.
    static func faultyBench() -> URL { ExecutableRunner.productsDirectory.appendingPathComponent("suite-fixture") }

    /// Runs the fixture with `arguments` on a thread of its own; `signal` is sent `after` seconds.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        signal: (number: Int32, after: Double)? = nil
    ) async throws -> Outcome {
        try await onThread {
            let started = try Started(faultyBench(), arguments, environment: environment)
            if let signal {
                let pid = started.pid
                DispatchQueue.global().asyncAfter(deadline: .now() + signal.after) { kill(pid, signal.number) }
            }
            return started.wait()
        }
    }

    /// A run of `arguments` and, side by side, its control: the same arguments with
    /// `controlEnvironment` (`controlSignal` sent when given), each into a fresh folder named after
    /// `name`. `check` reads both outcomes and folders; the folders are removed after it.
    static func runWithControl(
        _ name: String,
        _ arguments: [String],
        controlEnvironment: [String: String] = trapControlEnvironment,
        controlSignal: (number: Int32, after: Double)? = nil,
        check: (_ run: Outcome, _ out: URL, _ control: Outcome, _ controlOut: URL) throws -> Void
    ) async throws {
        let out = try folder(name), controlOut = try folder("\(name)-control")
        defer { remove(out, controlOut) }
        async let run = Self.run(arguments + ["--output", out.path])
        async let control = Self.run(arguments + ["--output", controlOut.path], environment: controlEnvironment, signal: controlSignal)
        let (r, c) = try await (run, control)
        try check(r, out, c, controlOut)
    }

    /// `r`, a run of `workload` into `out` in which `failing` faulted: exit 70, stderr names the
    /// variant and `reason`, and the run's document holds `kept`'s rows and none of `failing`'s.
    @discardableResult
    static func expectFailsOnly(
        _ failing: String,
        _ reason: String,
        keeping kept: String,
        _ r: Outcome,
        _ out: URL,
        _ workload: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunDocument {
        #expect(r.status == 70, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(failing) && r.stderr.contains(reason), "\(r.stderr)", sourceLocation: sourceLocation)
        let d = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("\(workload).json")))
        #expect(d.records.contains { $0.variant == kept }, sourceLocation: sourceLocation)
        #expect(!d.records.contains { $0.variant == failing }, sourceLocation: sourceLocation)
        return d
    }

    /// A fresh folder for one run; the test removes it (`remove`) when it ends.
    static func folder(_ name: String) throws -> URL {
        try ExecutableRunner.temporaryDirectory("faults-\(name)")
    }

    static func remove(_ folders: URL...) {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// Of `pids`, those that have ended (no such process, or a zombie nobody reaped yet) within
    /// `seconds`.
    static func gone(_ pids: Set<pid_t>, within seconds: Double) -> Set<pid_t> {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let ended = pids.filter { !Started.isAlive($0) }
            if ended == pids || Date() > deadline { return ended }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    struct Outcome: Sendable {
        var status: Int32
        var reason: Process.TerminationReason
        var stderr: String
        /// The run's children still alive when it ended.
        var childrenLeft: Set<pid_t>
    }

    /// A started process, its stderr in a file.
    final class Started {
        let process = Process()
        let errURL: URL
        var pid: pid_t { process.processIdentifier }
        var isRunning: Bool { process.isRunning }
        private var seen: Set<pid_t> = []

        init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
            errURL = FileManager.default.temporaryDirectory.appendingPathComponent("faults-stderr-\(getpid())-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env["SUITE_FIXTURE_FAULTS"] = "1"  // suite-fixture's faulty variants (inherited by its children)
            for (key, value) in environment { env[key] = value }
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errURL)
            try process.run()
        }

        /// The children of this process now (every thread's /proc children list).
        func children() -> Set<pid_t> {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            var out: Set<pid_t> = []
            for task in tasks {
                let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                for word in text.split(separator: " ") { if let child = pid_t(word) { out.insert(child) } }
            }
            seen.formUnion(out)
            return out
        }

        /// Waits (up to 120 s) until the process has a child, and returns its children.
        func waitForChildren() throws -> Set<pid_t> {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, process.isRunning {
                let now = children()
                if !now.isEmpty { return now }
                Thread.sleep(forTimeInterval: 0.02)
            }
            throw ExecutableRunner.NotBuilt(description: "no child process appeared")
        }

        /// Polls until the process has ended (a zombie counts), at most `seconds`. Unlike `wait`,
        /// does not depend on Foundation noticing the exit, which waits for every process that
        /// inherited its exit-watch descriptor.
        func waitForExit(upTo seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            while Started.isAlive(pid), Date() < deadline {
                _ = children()
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        func wait() -> Outcome {
            // Watch the children while waiting, to tell which were left behind.
            while process.isRunning {
                _ = children()
                Thread.sleep(forTimeInterval: 0.02)
            }
            process.waitUntilExit()
            let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: errURL)
            return Outcome(
                status: process.terminationStatus,
                reason: process.terminationReason,
                stderr: stderr,
                childrenLeft: seen.filter(Self.isAlive)
            )
        }

        /// Polls until one of `pids` has used `seconds` of CPU time (user and system), at most
        /// `limit` seconds of wall time.
        static func waitForCPUTime(of pids: Set<pid_t>, atLeast seconds: Double, upTo limit: Double) {
            let deadline = Date().addingTimeInterval(limit)
            while Date() < deadline, !pids.contains(where: { cpuTime($0) >= seconds }) { Thread.sleep(forTimeInterval: 0.05) }
        }

        /// The CPU time `pid` has used, in seconds (0 once it is gone).
        static func cpuTime(_ pid: pid_t) -> Double {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
            else { return 0 }
            // After the command name: state (field 3) ... utime (14) and stime (15), in clock ticks.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// Whether `pid` is a live process (not gone, not a zombie).
        static func isAlive(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            // The state follows the command name's closing parenthesis.
            guard let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(close, offsetBy: 2)...].first
            return state != "Z" && state != "X"
        }
    }
}
