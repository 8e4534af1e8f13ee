import Foundation
import OptionalPackages
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built-in live harnesses' child processes die with their run however it dies:
/// bench-invalidation's three role processes, bench-lifecycle's app, bench-readiness' probe,
/// bench-clock's `faketime` wrapper and the child it starts. Each run is SIGKILLed while its
/// child is in a state it would not leave by itself: a readiness probe deadlocked (its watchdog
/// 120 s away), the clock's child inside a 60 s scenario, and an invalidation or lifecycle child
/// stuck right after start (`PATTERNBENCH_TEST_CHILD_STALL`, as a child blocked in a system call
/// would be; one that runs polls for its parent). The control, the same run with the parent-death
/// watch off (`PATTERNBENCH_NO_PARENT_WATCH`): the children outlive the run (measured before this
/// fix for readiness and clock, which had no watch at all). Linux only (`PR_SET_PDEATHSIG`).
///
/// Swift Testing, not XCTest (`swift test` within 180 s): each case waits 3 s for a
/// control's children to outlive their run, and Swift Testing runs the four tests, and each
/// test's run and control, side by side (each on a thread of its own, `onThread`), where XCTest
/// ran them one after another. A failed expectation fails `swift test` as an XCTest failure does.
@Suite struct HarnessChildrenTests {
    struct Case: Sendable {
        var tool: String
        var arguments: [String]
        /// A child whose command line contains this is the one the run is killed under.
        var child: String
        var stall = false
    }

    static let cases: [String: Case] = [
        "invalidation": Case(
            tool: "bench-invalidation",
            arguments: ["--mode", "live", "--duration", "30", "--variant", "signal", "--quiet"],
            child: "--invalidation-child",
            stall: true
        ),
        "lifecycle": Case(
            tool: "bench-lifecycle",
            arguments: ["--mode", "live", "--variant", "signal", "--scenario", "everyday", "--sessions", "5", "--kills", "50", "--quiet"],
            child: "--lifecycle-child",
            stall: true
        ),
        "readiness": Case(
            tool: "bench-readiness",
            arguments: [
                "--mode", "live", "--scenario", "reentrant-tasks", "--variant", "article-lightweight", "--attempts", "1",
                "--watchdog-s", "120", "--quiet",
            ],
            child: "--readiness-probe cross-thread-wait"
        ),
        "clock": Case(
            tool: "bench-clock",
            arguments: ["--mode", "live", "--scenario", "leap-second", "--live-duration", "60", "--no-read-cost", "--quiet"],
            child: "--live-child"
        ),
    ]

    @Test func invalidationChildrenDieWithASIGKILLedRun() async throws { try await check("invalidation") }
    @Test func lifecycleChildDiesWithASIGKILLedRun() async throws { try await check("lifecycle") }
    @Test func readinessProbeDiesWithASIGKILLedRun() async throws { try await check("readiness") }
    @Test(.requires(.faketime)) func clockChildAndFaketimeDieWithASIGKILLedRun() async throws { try await check("clock") }

    /// Runs the case twice, side by side: watched, every child is gone within 3 s of the run's
    /// SIGKILL; the control, unwatched, some child is still alive 3 s after it (then killed here).
    func check(_ name: String) async throws {
        let c = try #require(Self.cases[name])
        async let watched = onThread { try Self.killed(c, name, watched: true) }
        async let unwatched = onThread { try Self.killed(c, name, watched: false) }
        let (w, u) = try await (watched, unwatched)
        #expect(w.alive.isEmpty, "\(name): children outlived the SIGKILLed run: \(w.children)")
        #expect(!u.alive.isEmpty, "\(name) control: without the watch some child must outlive the run, or this proves nothing")
    }

    /// What was below a run when it was SIGKILLed, and which of it was still alive 3 s later.
    struct Killed: Sendable {
        var children: [String]
        var alive: Set<pid_t>
    }

    /// Starts `c`'s run (with or without the parent-death watch), SIGKILLs it once its child runs,
    /// and reports what outlived it; nothing it started outlives the call.
    static func killed(_ c: Case, _ name: String, watched: Bool) throws -> Killed {
        var environment = ["PATTERNBENCH_NO_PARENT_WATCH": watched ? "" : "1"]
        if c.stall { environment["PATTERNBENCH_TEST_CHILD_STALL"] = "1" }
        let out = try ExecutableRunner.temporaryDirectory("harness-children-\(name)")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try RunningTool(c.tool, c.arguments + ["--output", out.path], environment: environment)
        defer { run.killEverything() }
        let children = try run.waitForDescendant(containing: c.child)
        FaketimeNames.waitUntilReleased(children)  // the clock's: none left in /dev/shm by the kill
        kill(run.pid, SIGKILL)
        run.waitForExit()
        let alive = ProcessTree.stillAlive(children, within: 3)
        return Killed(children: children.map(ProcessTree.commandLine), alive: alive)
    }
}

/// A single SIGINT or SIGTERM ends a live run at once while a built-in harness's child is in
/// flight, and writes what finished: the signal's handler kills every child, the item
/// in flight is dropped. Before, the run waited for the item: measured 19.5 s for a deadlocked
/// readiness probe (its --watchdog-s 20), 9.9 s for the clock's child (--live-duration 10);
/// after, 0.1-0.5 s (debug builds, AMD EPYC family 25 model 17, 2 cores, shared by other builds).
/// Each child here would run on for 30-120 s; the run must end well inside that (the bound is
/// loose on purpose: a loaded machine, not speed, is what it allows for). Swift Testing, side by
/// side with the other waiting tests, as `HarnessChildrenTests` says why.
@Suite struct HarnessInterruptTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var tool: String
        var arguments: [String]
        /// The signal goes once a child whose command line contains this is running.
        var child: String
        var signal: Int32
        /// The variant (or factor) whose records an item that finished first wrote; nil: none.
        var finishedVariant: String?
        var testDescription: String { name }
    }

    /// One case a tool: a live run whose built-in harness has a child in flight when the signal
    /// comes. The clock's needs the `faketime` package, so it is a test of its own below.
    static let cases: [Case] = [
        Case(
            name: "readiness",
            tool: "bench-readiness",
            arguments: [
                "--mode", "live", "--scenario", "reentrant-tasks", "--variant", "signal,article-lightweight", "--attempts", "1",
                "--watchdog-s", "120", "--quiet",
            ],
            child: "cross-thread-wait article-lightweight",
            signal: SIGINT,
            finishedVariant: "signal"
        ),
        Case(
            name: "invalidation",
            tool: "bench-invalidation",
            arguments: ["--mode", "live", "--duration", "30", "--variant", "signal", "--quiet"],
            child: "--invalidation-child",
            signal: SIGINT,
            finishedVariant: nil
        ),
        // Seed 2's items start once seed 1's five (one per durability) have finished.
        Case(
            name: "lifecycle",
            tool: "bench-lifecycle",
            arguments: [
                "--mode", "live", "--variant", "signal", "--scenario", "everyday", "--sessions", "5", "--kills", "6", "--seeds", "2",
                "--quiet",
            ],
            child: "-2 ",
            signal: SIGTERM,
            finishedVariant: "signal"
        ),
    ]

    static let clock = Case(
        name: "clock",
        tool: "bench-clock",
        arguments: ["--mode", "live", "--scenario", "leap-second", "--live-duration", "60", "--no-read-cost", "--quiet"],
        child: "bench-clock --live-child",
        signal: SIGTERM,
        finishedVariant: nil
    )

    @Test(arguments: cases) func endsAtOnceWithItsChildRunning(_ c: Case) async throws {
        try await check(c.name, c)
    }

    @Test(.requires(.faketime)) func clockEndsAtOnceWithItsChildRunning() async throws {
        try await check(Self.clock.name, Self.clock)
    }

    /// What an interrupted run left: its exit status, how long it took to end after the signal,
    /// the processes below it still alive 3 s after, and the results document it wrote (nil: none).
    struct Interrupted: Sendable {
        var status: Int32
        var took: TimeInterval
        var left: Set<pid_t>
        var document: Data?
    }

    func check(_ name: String, _ c: Case) async throws {
        let r = try await onThread { try Self.interrupt(name, c) }
        #expect(r.left.isEmpty, "\(name): children outlived the run")
        #expect(r.status == 128 + c.signal, "\(name)")
        #expect(r.took < 20, "\(name): the signal, not the child's 30-120 s, ended the run")
        let data = try #require(r.document, "\(name): nothing written")
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(document["complete"] as? Bool == false, "\(name)")
        let notes = document["notes"] as? [String] ?? []
        #expect(notes.first?.hasPrefix("INCOMPLETE: interrupted by") == true, "\(name): \(notes)")
        let records = document["records"] as? [[String: Any]] ?? []
        if let finished = c.finishedVariant {
            #expect(records.contains { $0["variant"] as? String == finished }, "\(name): the item that finished is written")
        }
        if name == "readiness" {
            #expect(!records.contains { $0["variant"] as? String == "article-lightweight" }, "the interrupted item is dropped")
        }
    }

    /// Starts `c`'s run, sends its signal once the child runs, and reports what the run left;
    /// nothing it started outlives the call.
    static func interrupt(_ name: String, _ c: Case) throws -> Interrupted {
        let out = try ExecutableRunner.temporaryDirectory("harness-interrupt-\(name)")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try RunningTool(c.tool, c.arguments + ["--output", out.path], environment: [:])
        defer { run.killEverything() }
        let children = try run.waitForDescendant(containing: c.child)
        FaketimeNames.waitUntilReleased(children)  // the clock's: none left in /dev/shm by the kill
        let signalled = Date()
        kill(run.pid, c.signal)
        run.waitForExit()
        let took = Date().timeIntervalSince(signalled)
        let left = ProcessTree.stillAlive(children.union(run.seen), within: 3)
        run.killEverything()
        run.process.waitUntilExit()
        let json = try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix(".json") }
        return Interrupted(
            status: run.process.terminationStatus,
            took: took,
            left: left,
            document: try json.map { try Data(contentsOf: out.appendingPathComponent($0)) }
        )
    }
}

/// A bench-* run started for a test, and every process below it.
final class RunningTool: @unchecked Sendable {
    // Written by the test's thread only.
    let process = Process()
    private(set) var seen: Set<pid_t> = []
    var pid: pid_t { process.processIdentifier }

    init(_ tool: String, _ arguments: [String], environment: [String: String]) throws {
        let url = ExecutableRunner.productsDirectory.appendingPathComponent(tool)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ExecutableRunner.NotBuilt(description: "\(url.path) is not built")
        }
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value.isEmpty ? nil : value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Polls (up to 120 s: a debug build under load starts slowly) until a process below the run
    /// has `text` in its command line; returns every process below the run then.
    func waitForDescendant(containing text: String) throws -> Set<pid_t> {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, ProcessTree.isAlive(pid) {
            let now = ProcessTree.descendants(of: pid)
            seen.formUnion(now)
            if now.contains(where: { ProcessTree.commandLine($0).contains(text) }) { return now }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw ExecutableRunner.NotBuilt(description: "no child with '\(text)' appeared")
    }

    /// Polls until the run has ended (a zombie counts), at most 30 s.
    func waitForExit() {
        let deadline = Date().addingTimeInterval(30)
        while ProcessTree.isAlive(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// SIGKILL to the run and to every process seen below it (and their groups): nothing a test
    /// started outlives it.
    func killEverything() {
        if ProcessTree.isAlive(pid) { kill(pid, SIGKILL) }
        for child in seen where ProcessTree.isAlive(child) {
            kill(-child, SIGKILL)
            kill(child, SIGKILL)
        }
    }
}

/// Reading the process tree from /proc.
enum ProcessTree {
    /// Every process below `pid` (children of each of its threads, recursively).
    static func descendants(of pid: pid_t) -> Set<pid_t> {
        var out: Set<pid_t> = []
        var todo = [pid]
        while let next = todo.popLast() {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(next)/task")) ?? []
            for task in tasks {
                let text = (try? String(contentsOfFile: "/proc/\(next)/task/\(task)/children", encoding: .utf8)) ?? ""
                for word in text.split(separator: " ") {
                    if let child = pid_t(word), out.insert(child).inserted { todo.append(child) }
                }
            }
        }
        return out
    }

    /// Of `pids`, those still alive once all have ended or `seconds` have passed.
    static func stillAlive(_ pids: Set<pid_t>, within seconds: Double) -> Set<pid_t> {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let alive = pids.filter(isAlive)
            if alive.isEmpty || Date() > deadline { return alive }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Whether `pid` is a live process (not gone, not a zombie).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let state = statFields(pid)?.first else { return false }
        return state != "Z" && state != "X"
    }

    /// `pid`'s parent, while it exists.
    static func parent(of pid: pid_t) -> pid_t? { statFields(pid).flatMap { $0.dropFirst().first }.flatMap { pid_t($0) } }

    /// `pid`'s executable name as the kernel keeps it (`comm`: a forked child keeps its parent's
    /// until it execs).
    static func name(_ pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fields of /proc/<pid>/stat after the name (which may hold spaces and parentheses):
    /// state, parent, ...
    private static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    static func commandLine(_ pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
    }
}
