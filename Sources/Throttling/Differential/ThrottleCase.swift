import Differential
import Simulation

/// bench-throttle's differential case: a few commit bursts on one device, replayed through two
/// throttle policies in virtual time (the workload's own `MainThreadSimulator`, default
/// `ThrottleParameters`).
///
/// **Its log** (`RecordingThrottler`): one `publish` event per publish the policy asked for that
/// ran, at the virtual nanosecond its main-thread item ended, detail `rows=N` (the rows it took)
/// and ` reset` when it reloaded the view; then, if the policy broke its contract, one
/// `violation` event at the end of the run. Two policies agree when they publish the same rows in
/// the same batches at the same times: frames, loads and landings follow from that.
public struct ThrottleCase: DifferentialCase, Hashable {
    /// One commit: when it arrives and how many rows it touched.
    public struct CommitInput: Codable, Hashable, Sendable {
        public var atNs: Int64
        public var rows: Int32

        enum CodingKeys: String, CodingKey {
            case atNs = "at_ns"
            case rows
        }
    }

    /// `fast`, `mid` or `slow` (`DeviceProfile.all`).
    public var device: String
    /// The display's refresh rate.
    public var vsyncHz: Int
    /// `observer` or `conversation` (`ThrottlePipeline`).
    public var pipeline: String
    /// The commits, in time order.
    public var commits: [CommitInput]

    enum CodingKeys: String, CodingKey {
        case device
        case vsyncHz = "vsync_hz"
        case pipeline, commits
    }

    public static let workload = "throttle"

    public var size: Int { commits.count }

    /// 1–20 commits in bursts (gaps of 0–30 ms, now and then 50–500 ms), 1–5 rows each, one in
    /// twenty a reset-sized transaction; a random device, 60 or 120 Hz, either pipeline.
    public static func random(_ g: inout SeededGenerator) -> ThrottleCase {
        let devices = DeviceProfile.all.map(\.name)
        let device = devices[Int(g.nextInt(in: 0...Int64(devices.count - 1)))]
        let vsync = g.nextUnit() < 0.8 ? 60 : 120
        let pipeline = g.nextUnit() < 0.5 ? ThrottlePipeline.conversation : .observer
        let count = Int(g.nextInt(in: 1...20))
        var t = g.nextInt(in: 0...200_000_000)
        var commits: [CommitInput] = []
        for _ in 0..<count {
            let rows: Int32 = g.nextUnit() < 0.05 ? Int32(g.nextInt(in: 200...260)) : Int32(g.nextInt(in: 1...5))
            commits.append(CommitInput(atNs: t, rows: rows))
            t += g.nextUnit() < 0.75 ? g.nextInt(in: 0...30_000_000) : g.nextInt(in: 50_000_000...500_000_000)
        }
        return ThrottleCase(device: device, vsyncHz: vsync, pipeline: pipeline.rawValue, commits: commits)
    }

    /// Drop a commit; lower its rows to 1 (or halve them); pull it onto the commit before it (or
    /// halve the gap); start the whole case at 0; a faster device; 60 Hz.
    public var shrinkCandidates: [ThrottleCase] {
        var out: [ThrottleCase] = []
        func with(_ change: (inout ThrottleCase) -> Void) {
            var copy = self
            change(&copy)
            out.append(copy)
        }
        if commits.count > 1 {
            for i in commits.indices { with { $0.commits.remove(at: i) } }
        }
        for i in commits.indices where commits[i].rows > 1 {
            with { $0.commits[i].rows = 1 }
            if commits[i].rows > 2 { with { $0.commits[i].rows /= 2 } }
        }
        if let first = commits.first, first.atNs > 0 {
            with { c in for i in c.commits.indices { c.commits[i].atNs -= first.atNs } }
        }
        for i in commits.indices.dropFirst() where commits[i].atNs > commits[i - 1].atNs {
            let gap = commits[i].atNs - commits[i - 1].atNs
            with { $0.commits[i].atNs -= gap }
            if gap > 1 { with { $0.commits[i].atNs -= gap / 2 } }
        }
        let devices = DeviceProfile.all.map(\.name)
        if let k = devices.firstIndex(of: device), k > 0 { with { $0.device = devices[k - 1] } }
        if vsyncHz != 60 { with { $0.vsyncHz = 60 } }
        return out
    }

    /// Runs the variant's policy (built with the default `ThrottleParameters`) on this case.
    public func observe(_ variant: ThrottlerVariant) -> [ObservedEvent] {
        var parameters = ThrottleParameters()
        parameters.pipeline = ThrottlePipeline(rawValue: pipeline) ?? .conversation
        return observe(variant.make(parameters), pipeline: parameters.pipeline)
    }

    private func observe<P: UpdateThrottler>(_ policy: P, pipeline: ThrottlePipeline) -> [ObservedEvent] {
        let profile = DeviceProfile.all.first { $0.name == device } ?? .fast
        let last = commits.last?.atNs ?? 0
        let scenario = ThrottleScenario(
            name: "differential",
            summary: "a differential case",
            arrivals: .poisson(rate: 1, rows: .fixed(1)),
            duration: SimDuration(nanoseconds: last + 1),
            device: profile,
            vsyncHz: vsyncHz
        )
        let trace = CommitTrace.recorded(commits.map { Commit(time: SimInstant(nanoseconds: $0.atNs), rows: $0.rows) })
        var simulator = MainThreadSimulator(
            policy: RecordingThrottler(policy),
            scenario: scenario,
            trace: trace,
            pipeline: pipeline,
            drainLimit: .seconds(60)
        )
        let result = simulator.run()
        var log = simulator.policy.log
        if let violation = result.violation {
            log.append(ObservedEvent(atNs: log.last?.atNs ?? last, kind: "violation", detail: violation.rule.statement))
        }
        return log
    }
}
