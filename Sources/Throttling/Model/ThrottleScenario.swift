import Simulation

/// A complete throttling workload: the commit stream, the device, the display and the load.
public struct ThrottleScenario: Hashable, Sendable {
    public var name: String
    public var summary: String
    public var arrivals: ArrivalModel
    /// How long commits arrive; the run then drains until everything is on screen.
    public var duration: SimDuration
    public var device: DeviceProfile
    public var load: LoadProfile
    public var vsyncHz: Int
    /// Memory one pending row holds (the changed row's identifiers and cached render data).
    public var bytesPerPendingRow: Int

    public init(
        name: String,
        summary: String,
        arrivals: ArrivalModel,
        duration: SimDuration,
        device: DeviceProfile,
        load: LoadProfile = .none,
        vsyncHz: Int = 60,
        bytesPerPendingRow: Int = 512
    ) {
        self.name = name
        self.summary = summary
        self.arrivals = arrivals
        self.duration = duration
        self.device = device
        self.load = load
        self.vsyncHz = vsyncHz
        self.bytesPerPendingRow = bytesPerPendingRow
    }

    /// The same scenario, shortened for `--quick` runs.
    public func scaled(by factor: Double) -> ThrottleScenario {
        var copy = self
        copy.duration = .seconds(duration.seconds * factor)
        if case let .syncStorm(rows, minGap, maxGap, storm, after) = arrivals {
            copy.arrivals = .syncStorm(rows: rows, minGap: minGap, maxGap: maxGap, stormDuration: storm * factor, afterRate: after)
        }
        return copy
    }

    static let storm = ArrivalModel.syncStorm(rows: .uniform(12...20), minGap: 0.025, maxGap: 0.080, stormDuration: 8, afterRate: 0)

    /// The named scenarios; the default matrix runs all of them.
    public static let catalogue: [ThrottleScenario] = [
        ThrottleScenario(
            name: "steady",
            summary: "Poisson, 8 commits/s of ~2 rows, fast device",
            arrivals: .poisson(rate: 8, rows: .geometric(mean: 2)),
            duration: .seconds(20),
            device: .fast
        ),
        ThrottleScenario(
            name: "bursts",
            summary: "on/off: 2 s at 60 commits/s, 3 s silent; mid device",
            arrivals: .onOff(rate: 60, on: 2, off: 3, rows: .geometric(mean: 3)),
            duration: .seconds(20),
            device: .mid
        ),
        ThrottleScenario(
            name: "mmpp",
            summary: "Markov-modulated: calm 2/s, bursts 120/s (mean 0.5 s), mid device",
            arrivals: .markovModulated(calmRate: 2, burstRate: 120, meanCalm: 3, meanBurst: 0.5, rows: .geometric(mean: 2)),
            duration: .seconds(30),
            device: .mid
        ),
        ThrottleScenario(
            name: "heavy-tail",
            summary: "Pareto bursts (alpha 1.2) of commits 10 ms apart, fast device",
            arrivals: .paretoBursts(burstRate: 0.5, alpha: 1.2, minCommits: 5, gap: 0.010, rows: .geometric(mean: 4)),
            duration: .seconds(30),
            device: .fast
        ),
        ThrottleScenario(
            name: "flood",
            summary: "a flood of tiny commits: Poisson 300 commits/s of 1 row for 10 s, mid device",
            arrivals: .poisson(rate: 300, rows: .fixed(1)),
            duration: .seconds(10),
            device: .mid
        ),
        ThrottleScenario(
            name: "storm-fast",
            summary: "initial-sync storm: ~16 rows every 25–80 ms for 8 s, fast device",
            arrivals: storm,
            duration: .seconds(10),
            device: .fast
        ),
        ThrottleScenario(
            name: "storm-slow",
            summary: "initial-sync storm on a slow device",
            arrivals: storm,
            duration: .seconds(10),
            device: .slow
        ),
        ThrottleScenario(
            name: "storm-slow-busy",
            summary: "storm on a slow device with 2x background load from 2 s to 6 s",
            arrivals: storm,
            duration: .seconds(10),
            device: .slow,
            load: .spike(factor: 2, from: 2, until: 6)
        ),
        ThrottleScenario(
            name: "storm-120hz",
            summary: "storm on a fast device driving a 120 Hz display",
            arrivals: storm,
            duration: .seconds(10),
            device: .fast,
            vsyncHz: 120
        ),
    ]
}
