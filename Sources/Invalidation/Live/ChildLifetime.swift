import Foundation
import Measurement
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What bounds a live child process's life: the instant every process starts at together and a
/// hard deadline, both on CLOCK_MONOTONIC (which every process on the machine shares), and the
/// harness's pid. A child checks them between steps, so none outlives its run.
struct ChildLifetime: Codable {
    var startRawNs: Int64
    /// A child still running at this instant exits with a failure by itself.
    var deadlineRawNs: Int64
    /// A child whose parent is no longer this pid exits at once (the harness died).
    var parentPid: Int32

    /// A life that starts `delayNs` from now (time for every child to spawn and get ready) and
    /// lasts `durationNs`, with this process as the harness.
    static func starting(afterNs delayNs: Int64, lastingNs durationNs: Int64) -> ChildLifetime {
        let start = SystemMonotonicClock.raw() + delayNs
        return ChildLifetime(startRawNs: start, deadlineRawNs: start + durationNs, parentPid: getpid())
    }

    /// Nanoseconds since the common start.
    func now() -> Int64 { SystemMonotonicClock.raw() - startRawNs }

    /// Throws when the harness is gone or the deadline passed.
    func checkAlive() throws {
        if getppid() != parentPid { throw BenchFailure.runtime("the harness exited; stopping") }
        if SystemMonotonicClock.raw() > deadlineRawNs { throw BenchFailure.runtime("deadline passed") }
    }
}
