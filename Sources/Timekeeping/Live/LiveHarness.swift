import Foundation
import Processes
import Records

/// The parent side of live mode: checks for libfaketime, builds the timerfd shim, and runs each
/// scenario in a child process of this same executable under the `faketime` wrapper.
public enum LiveHarness {
    public struct Outcome: Sendable {
        public var scenario: SkewScenario
        public var result: LiveResult
        public var dropped: Int
        /// The plan the child ran, to simulate the same run for comparison.
        public var plan: LivePlan
    }

    public static let missingFaketime =
        "live mode needs libfaketime, which is not installed: install the Debian package `faketime` (apt-get install faketime)"

    /// What the `faketime` wrapper prints when it cannot set up its shared memory and so never
    /// starts its child (libfaketime 0.9.10's faketime.c).
    static let wrapperStartFailure = "However, you may LD_PRELOAD libfaketime without using this wrapper."
    /// Further starts after that failure.
    static let wrapperRetries = 3

    /// The `faketime` wrapper, if libfaketime is installed.
    public static func faketimePath() -> String? { Executables.find("faketime") }

    /// Fails with the package to install when live mode cannot run here (or with the platform,
    /// off Linux: the timerfd shim and `CLOCK_BOOTTIME` are Linux's).
    public static func checkAvailable() throws(LiveError) -> String {
        #if os(Linux)
        guard let path = faketimePath() else { throw LiveError(missingFaketime) }
        return path
        #else
        throw LiveError("live mode runs on Linux only (a timerfd LD_PRELOAD shim under libfaketime, CLOCK_BOOTTIME); use --mode sim here")
        #endif
    }

    /// Runs one scenario for real. The child gets:
    /// - `LD_PRELOAD=<shim>` set before calling the wrapper, which appends libfaketime after it,
    ///   so the shim's timerfd functions win;
    /// - `faketime --exclude-monotonic -f +0 env -u FAKETIME <childCommand…> plan.json`: the
    ///   wrapper (a bare LD_PRELOAD empties Swift's `CommandLine.arguments`) with the monotonic
    ///   clocks excluded, and FAKETIME removed again because it would take precedence over
    ///   `FAKETIME_TIMESTAMP_FILE`, which the child rewrites to step and slew its wall clock;
    /// - `FAKETIME_NO_CACHE=1` so every time call re-reads that file and `FAKETIME_XRESET=1` so a
    ///   rate change starts from the current fake time.
    ///
    /// `childCommand` is the program and leading arguments that run `runChild(planPath:)` in the
    /// child (bench-clock passes itself with its hidden `--live-child` flag; a test can pass any
    /// binary that does the same), so the harness works outside its host executable.
    public static func run(
        childCommand: [String],
        scenario: SkewScenario,
        clients: [ClientKind],
        sources: [ClockKind],
        seed: UInt64,
        duration: Double,
        parameters: ClientParameters = .live,
        useShim: Bool = true,
        readCostIterations: Int = 100_000,
        readCostRepetitions: Int = 5
    ) throws(LiveError) -> Outcome {
        let faketime = try checkAvailable()
        guard let env = Executables.find("env") else { throw LiveError("live mode needs `env` (Debian package coreutils) on PATH") }
        var shim: String?
        if useShim {
            do { shim = try TimerfdShim.build() } catch { throw LiveError(error.description) }
        }
        let mapped = try LivePlan.liveEvents(for: scenario, duration: duration - 1, firstAt: 1.5)
        let folder = NSTemporaryDirectory() + "bench-clock-live-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw LiveError("cannot create \(folder): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plan = LivePlan(
            scenario: scenario,
            events: mapped.events,
            duration: duration,
            clients: clients,
            sources: sources,
            seed: seed,
            parameters: parameters,
            timestampFile: folder + "/faketime.rc",
            resultFile: folder + "/result.json",
            readCostIterations: readCostIterations,
            readCostRepetitions: readCostRepetitions
        )
        let planPath = folder + "/plan.json"
        do {
            try JSONEncoder().encode(plan).write(to: URL(fileURLWithPath: planPath))
        } catch {
            throw LiveError("cannot write \(planPath): \(error.localizedDescription)")
        }
        FaketimeControl.write("+0", to: plan.timestampFile)

        var environment = ProcessInfo.processInfo.environment
        if let shim {
            environment["LD_PRELOAD"] = [shim, environment["LD_PRELOAD"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        }
        environment["FAKETIME_TIMESTAMP_FILE"] = plan.timestampFile
        environment["FAKETIME_NO_CACHE"] = "1"
        environment["FAKETIME_XRESET"] = "1"
        environment["FAKETIME"] = nil
        guard !childCommand.isEmpty else { throw LiveError("the live harness needs a child command") }
        func start() -> Executables.Result {
            Executables.run(
                faketime,
                ["--exclude-monotonic", "-f", "+0", env, "-u", "FAKETIME"] + childCommand + [planPath],
                environment: environment,
                timeout: duration + 60,
                onTimeout: {
                    // The wrapper forks the child; kill the child itself, by the pid it wrote.
                    if let text = try? String(contentsOfFile: folder + "/child.pid", encoding: .utf8), let pid = Int32(text) {
                        kill(pid, SIGKILL)
                    }
                }
            )
        }
        // The wrapper names its shared memory after its own pid and refuses a name that exists: a
        // wrapper killed with SIGKILL before its child released the names (`FaketimeSharedNames`;
        // another tool's, or one from before that) leaves its name in /dev/shm, and a later
        // wrapper given that pid again fails before the child starts. Another start gets another
        // pid; the child never ran, so nothing is repeated.
        var result = start()
        for _ in 0..<Self.wrapperRetries where result.status != 0 && result.stderr.contains(Self.wrapperStartFailure) {
            result = start()
        }
        if result.timedOut {
            let why =
                useShim
                ? ""
                : " without the timerfd shim: libfaketime turns libdispatch's timerfd deadlines into wall-clock ones (wolfcw/libfaketime#378)"
            throw LiveError("the live child for '\(scenario.name)' hung and was killed after \(Int(duration + 60)) s\(why)")
        }
        guard result.status == 0 else {
            let lines = result.stderr.split(separator: "\n").filter { !FaketimeSharedNames.isCleanupNoise($0) }
            let line = lines.last.map(String.init) ?? "exit status \(result.status)"
            throw LiveError("the live child for '\(scenario.name)' failed (status \(result.status)): \(line)")
        }
        guard let data = FileManager.default.contents(atPath: plan.resultFile),
            let decoded = try? JSONDecoder().decode(LiveResult.self, from: data)
        else {
            throw LiveError("the live child for '\(scenario.name)' wrote no readable result")
        }
        return Outcome(scenario: scenario, result: decoded, dropped: mapped.dropped, plan: plan)
    }

    /// This process's executable, resolved so the child runs the very same binary.
    public static func selfExecutable() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments.first ?? "bench-clock"
    }

    /// The child's entry point: reads the plan, runs it, writes the result.
    public static func runChild(planPath: String) throws(LiveError) {
        // Under the `faketime` wrapper: dies with the wrapper, which dies with the run.
        ParentWatch.armInChild()
        // The wrapper's /dev/shm names, opened by libfaketime already: gone now, whatever ends the wrapper.
        FaketimeSharedNames.release()
        guard let data = FileManager.default.contents(atPath: planPath),
            let plan = try? JSONDecoder().decode(LivePlan.self, from: data)
        else { throw LiveError("cannot read the live plan \(planPath)") }
        let folder = URL(fileURLWithPath: planPath).deletingLastPathComponent().path
        _ = FileManager.default.createFile(atPath: folder + "/child.pid", contents: Data(String(getpid()).utf8))
        let result = LiveSession.run(plan)
        let encoded: Data
        do { encoded = try JSONEncoder().encode(result) } catch {
            throw LiveError("cannot encode the live result: \(error)")
        }
        do { try AtomicFile.write(encoded, to: plan.resultFile) } catch {
            throw LiveError(error.description)
        }
    }
}
