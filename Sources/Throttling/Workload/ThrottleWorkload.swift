import Foundation
import Measurement
import Simulation
import Timelines

/// bench-throttle as a `Workload`: every (scenario, seed, policy) of the matrix is one item,
/// simulated in virtual time, or — in live mode — run on real threads and simulated beside it.
public struct ThrottleWorkload: IsolatingWorkload, FoldingWorkload, EnvironmentWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    public typealias Variant = ThrottlerVariant

    /// One (scenario, seed, policy). The scenario and policy are looked up in the matrix's one
    /// shared copy: a thousand seeds make 72,000 items, and a copy of both in each was 40 MB.
    public struct Item: MatrixItem {
        let matrix: Matrix
        let scenarioIndex: Int32
        let policyIndex: Int32
        public var seed: UInt64
        public var repetition: Int

        public var scenario: ThrottleScenario { matrix.scenarios[Int(scenarioIndex)] }
        public var policy: ThrottlerVariant { matrix.policies[Int(policyIndex)] }
        public var scenarioName: String { scenario.name }
        public var variantName: String { policy.name }
    }

    /// The scenarios and policies every item points into (immutable once built).
    final class Matrix: Sendable {
        let scenarios: [ThrottleScenario]
        let policies: [ThrottlerVariant]

        init(scenarios: [ThrottleScenario], policies: [ThrottlerVariant]) {
            self.scenarios = scenarios
            self.policies = policies
        }
    }

    public struct Sample: Sendable, Codable {
        public var sim: ThrottleRunResult
        /// Real seconds the simulation of this item took (the simulator's speed, not the model's).
        public var simWallSeconds: Double
        /// The same item on real threads and clocks, in live mode.
        public var live: ThrottleRunResult?
    }

    public static let name = "throttle"
    /// The arrival stream's version: every scenario's commits come from `ArrivalIterator`.
    public static var randomStreamVersion: Int { ArrivalIterator.streamVersion }
    public let configuration: ThrottleConfiguration
    /// What the run was built with; its registry holds every policy the run could name (the
    /// suite's own and any a user registered).
    public let environment: Environment
    public let scenarios: [ThrottleScenario]
    public let policies: [ThrottlerVariant]
    public let seeds: [UInt64]
    /// A user trace replaces the generated arrivals (the seed then only labels the run).
    public let userTrace: RecordedTrace?
    public let items: [Item]
    public var factorNames: [String] { [] }

    public init(configuration: ThrottleConfiguration, environment: Environment = Environment()) throws {
        try configuration.validate()
        self.configuration = configuration
        self.environment = environment
        let selection = environment.selection
        policies = try environment.selectedVariants()
        let devices = try MatrixSelection.resolve(configuration.devices, flag: "--device", from: DeviceProfile.all, name: \.name)
        var scenarios: [ThrottleScenario]
        if let path = configuration.tracePath {
            guard selection.scenarios.isEmpty else {
                throw BenchFailure.usage("--scenario and --trace cannot be combined: the trace is the scenario")
            }
            let trace = try RecordedTrace(
                path: path,
                signpost: configuration.traceSignpost,
                process: configuration.traceProcess
            )
            userTrace = trace
            let chosen = configuration.devices.isEmpty ? DeviceProfile.all : devices
            scenarios = chosen.map { device in
                ThrottleScenario(
                    name: "trace-\(trace.name)-\(device.name)",
                    summary: "replay of \(path) on a \(device.name) device",
                    arrivals: .poisson(rate: 1, rows: .fixed(1)),
                    duration: trace.span,
                    device: device
                )
            }
        } else {
            userTrace = nil
            // Live runs take real time: by default one scenario, the slow-device storm.
            let requested = selection.scenarios.isEmpty && configuration.mode == .live ? ["storm-slow"] : selection.scenarios
            scenarios = try MatrixSelection.resolve(requested, flag: "--scenario", from: ThrottleScenario.catalogue, name: \.name)
            try configuration.checkEffect(on: scenarios, quick: selection.quick)
            if !configuration.devices.isEmpty {
                scenarios = scenarios.flatMap { s in
                    devices.map { d in
                        var copy = s
                        copy.device = d
                        if devices.count > 1 || d != s.device { copy.name = "\(s.name)@\(d.name)" }
                        return copy
                    }
                }
            }
        }
        let replaying = configuration.tracePath != nil
        scenarios = scenarios.map { s in
            var copy = s
            if let hz = configuration.vsyncHz { copy.vsyncHz = hz }
            if let rate = configuration.rate, !replaying {
                copy.arrivals = .poisson(rate: rate, rows: .geometric(mean: 3))
            }
            if let d = configuration.duration, !replaying {
                copy.duration = .seconds(d)
            } else if selection.quick, !replaying {
                copy = copy.scaled(by: 0.3)
            }
            return copy
        }
        self.scenarios = scenarios
        seeds = selection.seeds(default: configuration.mode == .live || replaying ? 1 : 3)
        let matrix = Matrix(scenarios: scenarios, policies: policies)
        items = MatrixSelection.items(scenarios: Array(scenarios.indices), seeds: seeds, variants: Array(policies.indices)) {
            Item(matrix: matrix, scenarioIndex: Int32($0), policyIndex: Int32($1), seed: $2, repetition: $3)
        }
    }

    public static let hasTimeline = true

    public func label(_ item: Item) -> String {
        "\(item.scenario.name) \(item.policy.name) seed \(item.seed)\(configuration.mode == .live ? " live" : "")"
    }

    /// A user's policy runs in a child process, in virtual time as in live: a trap or a hang
    /// fails that item only.
    public func runsInChildProcess(_ item: Item) -> Bool { item.policy.info.origin == .user }

    public func timing(_ item: Item) -> ItemTiming {
        configuration.mode == .live ? .real : .virtual
    }

    /// The item's commits. A simulated run streams them from the seed as it goes: one pass, so
    /// an array made up front (up to 2,000,000 commits, then thrown away for a longer trace) only
    /// cost time and memory. A live run replays them twice (simulated, then live),
    /// and its real-time loop should not generate them, so it keeps the array.
    func trace(for item: Item) -> CommitTrace {
        if let userTrace { return userTrace.trace }
        if configuration.mode != .live { return ThrottleExperiment.trace(for: item.scenario, seed: item.seed) }
        return .pregenerated(item.scenario.arrivals, seed: item.seed, duration: item.scenario.duration)
    }

    public func run(_ item: Item) throws -> Sample {
        let trace = trace(for: item)
        let parameters = configuration.policyParameters
        let live = configuration.mode == .live
        let started = SystemMonotonicClock()
        let sim = ThrottleExperiment.simulate(
            policy: item.policy,
            parameters: parameters,
            scenario: item.scenario,
            trace: trace,
            recordTimeline: recordTimeline && !live
        )
        let wall = started.now().seconds
        if let violation = sim.violation { throw violation }
        guard live else { return Sample(sim: sim, simWallSeconds: wall, live: nil) }
        let measured = LiveThrottleRun.run(
            policy: item.policy,
            parameters: parameters,
            scenario: item.scenario,
            trace: trace,
            backgroundThreads: configuration.backgroundThreads,
            recordTimeline: recordTimeline
        )
        if let violation = measured.violation { throw violation }
        return Sample(sim: sim, simWallSeconds: wall, live: measured)
    }

    public func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        item.labelled(sim: sample.sim.observations, live: sample.live?.observations)
    }

    public static let hasTrace = true

    /// The main thread's frames, notifications, ticks, timers, publishes and landings, the writer's
    /// commits, the load builder's loads, missed vsyncs and the pending rows, of the run that
    /// recorded them (live in live mode, else the simulation).
    public func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        let (mode, result) = sample.live.map { ("live", $0) } ?? ("sim", sample.sim)
        guard !result.trace.isEmpty else { return [] }
        return [item.trace(mode, result.trace)]
    }

    public func timeline(for item: Item, sample: Sample) -> [TimelineRecord] {
        let (mode, result) = sample.live.map { ("live", $0) } ?? ("sim", sample.sim)
        return result.timeline.map { u in
            TimelineRecord(
                scenario: item.scenario.name,
                variant: item.policy.name,
                mode: mode,
                seed: item.seed,
                repetition: item.repetition,
                timeMs: u.time.seconds * 1000,
                event: "update",
                rows: u.rows,
                reset: u.reset,
                costMs: u.cost.milliseconds,
                frameLatenessMs: u.frameLateness?.milliseconds
            )
        }
    }
}
