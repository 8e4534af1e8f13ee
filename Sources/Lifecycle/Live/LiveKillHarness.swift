import Foundation
import Measurement
import Records
import Simulation
import Timelines

#if canImport(Glibc)
import Glibc
#endif

/// Kills a real app process at random instants and relaunches it to see what storage kept.
///
/// Each round starts the app child (it saves continuously), waits a seeded random time, then — as
/// the model's kill at that point was — either suspends it with SIGSTOP and kills it while
/// suspended (the OS reclaiming a suspended app whose save was in flight) or kills it outright with
/// SIGKILL (the watchdog or a kill of a running app), reaps
/// it, reads everything it acknowledged, and relaunches it in the `verify` role, which checks the
/// state's checksum. No child outlives a round: every one is reaped before the next starts.
package struct LiveKillHarness {
    let command: [String]
    let durability: LifecyclePolicy.Durability
    let kills: Int
    let seed: UInt64
    let directory: String?
    /// The model's kill points, cycled through: for each, whether the app was suspended (SIGSTOP,
    /// then SIGKILL) or running (SIGKILL). Empty: alternate.
    let suspendedAtKill: [Bool]

    package struct Result: Sendable {
        package var kills = 0
        package var killsInsideSave = 0
        package var suspendedKills = 0
        package var corruptLaunches = 0
        package var acknowledgedLost = 0
        package var savesCompleted = 0
        package var pids: [Int32] = []
        package var notes: [String] = []
        package var trace: [TraceEvent] = []

        package var observations: [Observation] {
            [
                Observation("kills", Double(kills), "count"),
                Observation("kills_inside_save", Double(killsInsideSave), "count"),
                Observation("suspended_kills", Double(suspendedKills), "count"),
                Observation("corrupt_launches", Double(corruptLaunches), "count"),
                Observation("acked_lost", Double(acknowledgedLost), "count"),
                Observation("saves_completed", Double(savesCompleted), "count"),
            ]
        }
    }

    /// Runs the kills, timing them on `clock` (the injected live clock; a `TestClock` in a test).
    package func run(clock: any MonotonicClock = SystemMonotonicClock()) throws -> Result {
        let dir = directory ?? NSTemporaryDirectory() + "pb-lifecycle-\(getpid())-\(durability.rawValue)-\(seed)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: dir) } }
        var rng = SeededGenerator(seed: seed &+ UInt64(LifecyclePolicy.Durability.allCases.firstIndex(of: durability)!) &* 1_000_003)
        var result = Result()
        let start = clock.now()
        func now() -> Int64 { (clock.now() - start).nanoseconds }
        for round in 0..<kills {
            let app = try ChildApp.start(command + [LifecycleChild.flag, dir, durability.rawValue, "app"])
            result.pids.append(app.pid)
            let launched = now()
            guard let ready = app.readLine(), ready.hasPrefix("ready ") else {
                app.kill()
                throw BenchFailure.runtime("lifecycle live: the app child did not start (\(app.stderrTail()))")
            }
            // A seeded instant 2-30 ms into the run: with saves back to back, most land inside one.
            usleep(useconds_t(2000 + rng.nextInt(in: 0...28_000)))
            let suspended = suspendedAtKill.isEmpty ? round % 2 == 0 : suspendedAtKill[round % suspendedAtKill.count]
            if suspended {
                Glibc.kill(app.pid, SIGSTOP)
                if recordTimeline { result.trace.append(.instant("SIGSTOP", on: "os", at: now())) }
                usleep(1000)
                result.suspendedKills += 1
            }
            let killedAt = now()
            app.kill()
            result.kills += 1
            let said = app.readToEnd()
            var acknowledged: Int64 = 0
            var begun: Int64 = 0
            var first: Int64 = Int64(ready.dropFirst(6)) ?? 0
            for line in said.split(separator: "\n") {
                if line.hasPrefix("a "), let v = Int64(line.dropFirst(2)) { acknowledged = v }
                if line.hasPrefix("b "), let v = Int64(line.dropFirst(2)) { begun = v }
            }
            if acknowledged == 0 { acknowledged = first }
            let inside = begun > acknowledged
            if inside { result.killsInsideSave += 1 }
            result.savesCompleted += Int(max(0, acknowledged - first))
            first = acknowledged
            let verify = try ChildApp.start(command + [LifecycleChild.flag, dir, durability.rawValue, "verify"])
            result.pids.append(verify.pid)
            let found = verify.readToEnd().split(separator: "\n").first.map(String.init) ?? ""
            verify.wait()
            let verified = now()
            if recordTimeline {
                result.trace.append(.slice("app saving", on: "app", start: launched, duration: killedAt - launched))
                result.trace.append(.instant("SIGKILL", on: "os", at: killedAt))
                result.trace.append(.slice("relaunch + verify", on: "app", start: killedAt, duration: verified - killedAt))
            }
            if found == "corrupt" {
                result.corruptLaunches += 1
                result.acknowledgedLost += Int(acknowledged)
                if recordTimeline { result.trace.append(.instant("corrupt state", on: "os", at: verified)) }
            } else if found.hasPrefix("ok "), let v = Int64(found.dropFirst(3)) {
                result.acknowledgedLost += Int(max(0, acknowledged - v))
            } else if found == "none" {
                result.acknowledgedLost += Int(acknowledged)
            } else {
                throw BenchFailure.runtime("lifecycle live: the verify child said '\(found.prefix(80))' (\(verify.stderrTail()))")
            }
        }
        return result
    }

    /// Whether to keep a timeline (`--events`, `--perfetto`); set through `recording(_:)`.
    var recordTimeline = false

    package func recording(_ on: Bool) -> LiveKillHarness {
        var copy = self
        copy.recordTimeline = on
        return copy
    }
}
