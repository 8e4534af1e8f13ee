import Dispatch
import Foundation
import Records
import Simulation

/// The fan-out primitives whose per-child cost live mode measures.
public enum OverheadPrimitive: String, Sendable, Hashable, CaseIterable, Codable {
    /// `DispatchGroup` enter, `async` on a global queue, leave; `wait` for all.
    case dispatchGroup = "dispatch-group-child"
    /// `withTaskGroup`, `addTask` per child, all awaited.
    case taskGroup = "task-group-child"
}

/// What one child of a fan-out costs on real Dispatch and on real Swift tasks: wall time and process
/// CPU time per child, for children that do nothing (the primitive's own cost).
public struct ChildOverheadResult: Sendable, Codable, Hashable {
    public var children: Int
    public var wallNsPerChild: Double
    public var cpuNsPerChild: Double

    public var observations: [Observation] {
        [
            Observation("overhead_wall_ns_per_child", wallNsPerChild, "ns"),
            Observation("overhead_cpu_ns_per_child", cpuNsPerChild, "ns"),
        ]
    }
}

enum ChildOverhead {
    /// Process CPU time (user + system, all threads) in ns.
    static func cpuNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    static func wallNow() -> Int64 { SystemMonotonicClock.raw() }

    /// Five rounds of `children` empty children after one warm-up round; the median round.
    static func measure(_ primitive: OverheadPrimitive, children: Int) -> ChildOverheadResult {
        var walls: [Double] = []
        var cpus: [Double] = []
        for round in 0..<6 {
            let (w0, c0) = (wallNow(), cpuNow())
            switch primitive {
            case .dispatchGroup: dispatchRound(children)
            case .taskGroup: taskRound(children)
            }
            let (w1, c1) = (wallNow(), cpuNow())
            if round > 0 {
                walls.append(Double(w1 - w0) / Double(children))
                cpus.append(Double(c1 - c0) / Double(children))
            }
        }
        return ChildOverheadResult(
            children: children,
            wallNsPerChild: Statistics.median(walls) ?? 0,
            cpuNsPerChild: Statistics.median(cpus) ?? 0
        )
    }

    private static func dispatchRound(_ n: Int) {
        let group = DispatchGroup()
        let queue = DispatchQueue.global()
        for _ in 0..<n {
            group.enter()
            queue.async { group.leave() }
        }
        group.wait()
    }

    private static func taskRound(_ n: Int) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<n { group.addTask {} }
                await group.waitForAll()
            }
            done.signal()
        }
        done.wait()
    }
}
