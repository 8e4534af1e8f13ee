import Foundation
import Measurement
import Records
import Simulation
import Timelines

/// bench-group as a `Workload`: the login flow of "Sequencing tasks with DispatchGroup" under every
/// fan-out strategy.
///
/// Sim items: every (scenario, seed, variant) in virtual time — deterministic, and every variant of
/// a (scenario, seed) sees the same draws. Live items: the same flows on real Dispatch queues and
/// real Swift tasks with real sleeps, each beside its simulation at the same time scale, plus the
/// per-child overhead of a fan-out on Dispatch and on tasks (`child-overhead`).
public struct FanOutWorkload: IsolatingWorkload, FoldingWorkload, EnvironmentWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    public typealias Variant = FanOutVariant

    public struct Item: MatrixItem {
        public var scenario: FanOutScenario
        public var variant: FanOutVariant
        public var seed: UInt64
        public var repetition: Int
        public var live: Bool
        /// Live `child-overhead`: the primitive measured (`dispatch-group` or `task-group`).
        public var overhead: OverheadPrimitive?

        public var scenarioName: String { scenario.name }
        public var variantName: String { variant.name }
    }

    public enum Sample: Sendable, Codable {
        case sim(FanOutSimResult)
        /// A live run and the simulation of the same flows at the same time scale.
        case live(LiveFlowResult, sim: FanOutSimResult)
        case overhead(ChildOverheadResult)
    }

    public static let name = "group"
    public static let overheadScenario = "child-overhead"
    public let configuration: FanOutConfiguration
    public let environment: Environment
    public let variants: [FanOutVariant]
    public let scenarios: [FanOutScenario]
    public let seeds: [UInt64]
    public let flows: Int
    public let timeScale: Double
    public let children: Int
    public let items: [Item]
    public var factorNames: [String] { ["movies"] }
    /// Every registered variant's origin; the live `child-overhead` primitives are references.
    public var variantOrigins: [String: VariantOrigin] {
        environment.registry.origins.merging(OverheadPrimitive.allCases.map { ($0.rawValue, .reference) }) { $1 }
    }

    package init(configuration: FanOutConfiguration, environment: Environment = Environment()) throws {
        self.configuration = configuration
        self.environment = environment
        let selection = environment.selection
        variants = try environment.selectedVariants()
        let live = configuration.mode == .live
        if let f = configuration.flows, !(1...100_000).contains(f) {
            throw BenchFailure.usage("--flows must be between 1 and 100000, got \(f)")
        }
        if !live, configuration.timeScale != nil { throw BenchFailure.usage("--time-scale applies to --mode live only") }
        if !live, configuration.children != nil { throw BenchFailure.usage("--children applies to --mode live only") }
        if let s = configuration.timeScale, !(s >= 0.01 && s <= 1) {
            throw BenchFailure.usage("--time-scale must be between 0.01 and 1, got \(s)")
        }
        if let c = configuration.children, !(1...1_000_000).contains(c) {
            throw BenchFailure.usage("--children must be between 1 and 1000000, got \(c)")
        }
        if live, let f = configuration.flows, f > 1000 { throw BenchFailure.usage("--flows must be at most 1000 in --mode live, got \(f)") }
        if live, let v = variants.first(where: { $0.shape.hedged && $0.shape.join == .blockingOperations }) {
            throw BenchFailure.usage("variant '\(v.name)': hedged synchronous operations have no live form (--mode sim only)")
        }
        timeScale = configuration.timeScale ?? 0.1
        children = configuration.children ?? (selection.quick ? 200 : 1000)
        flows = configuration.flows ?? (live ? (selection.quick ? 20 : 60) : (selection.quick ? 100 : 300))
        if !live, selection.scenarios.contains(Self.overheadScenario) {
            throw BenchFailure.usage("--scenario \(Self.overheadScenario) runs in --mode live only")
        }
        let catalogue = FanOutScenario.catalogue.map(\.name) + (live ? [Self.overheadScenario] : [])
        let names = try MatrixSelection.resolve(selection.scenarios, flag: "--scenario", from: catalogue, name: { $0 })
        scenarios = FanOutScenario.catalogue.filter { names.contains($0.name) }
        seeds = selection.seeds(default: live ? (selection.quick ? 1 : 3) : (selection.quick ? 2 : 5))
        var items = MatrixSelection.items(scenarios: scenarios, seeds: seeds, variants: variants) {
            Item(scenario: $0, variant: $1, seed: $2, repetition: $3, live: live, overhead: nil)
        }
        if live, names.contains(Self.overheadScenario) {
            let placeholder = FanOutScenario(name: Self.overheadScenario, summary: "", services: ServiceProfile(), batchedMovies: true)
            for (repetition, seed) in seeds.enumerated() {
                for primitive in OverheadPrimitive.allCases {
                    items.append(
                        Item(
                            scenario: placeholder,
                            variant: FanOutVariant.harness(primitive),
                            seed: seed,
                            repetition: repetition,
                            live: true,
                            overhead: primitive
                        )
                    )
                }
            }
        }
        guard !items.isEmpty else { throw BenchFailure.usage("the selection is empty") }
        self.items = items
    }

    public func label(_ item: Item) -> String {
        "\(item.scenario.name) \(item.variant.name)\(item.live ? " live" : "") seed \(item.seed)"
    }

    public func timing(_ item: Item) -> ItemTiming { item.live ? .real : .virtual }

    /// Every live item runs in a child process of its own: a fresh process starts with a cold
    /// Dispatch pool and cooperative pool, so no item inherits the threads a previous item made the
    /// pool grow (measured: `group-wait-worker` starves for seconds on a cold libdispatch pool and
    /// not at all after an earlier item grew it — an order effect a shared process would hide). A
    /// user's shape is isolated too, as every opened workload isolates user variants run live.
    public func runsInChildProcess(_ item: Item) -> Bool { item.live }

    func simRequest(_ item: Item, scenario: FanOutScenario) -> FanOutSimulation.Request {
        FanOutSimulation.Request(shape: item.variant.shape, scenario: scenario, seed: item.seed, flows: flows, recordTrace: recordTimeline)
    }

    public func run(_ item: Item) throws -> Sample {
        if let primitive = item.overhead {
            return .overhead(ChildOverhead.measure(primitive, children: children))
        }
        guard item.live else {
            let sim = FanOutSimulation.run(simRequest(item, scenario: item.scenario))
            if let violation = sim.violation { throw violation }
            return .sim(sim)
        }
        let scaled = item.scenario.scaled(by: timeScale)
        let sim = FanOutSimulation.run(simRequest(item, scenario: scaled))
        if let violation = sim.violation { throw violation }
        let plans = FlowPlan.plans(count: flows, scenario: scaled, seed: item.seed)
        let live = LiveFlowRunner(variant: item.variant, batched: scaled.batchedMovies, recordTrace: recordTimeline).run(plans)
        if let violation = live.violation { throw violation }
        return .live(live, sim: sim)
    }

    public func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        let movies = item.overhead != nil ? "-" : (item.scenario.batchedMovies ? "batched" : "per-movie")
        func labelled(_ mode: String, _ observations: [Observation]) -> LabelledObservations {
            item.labelled(mode, factors: ["movies": movies], observations)
        }
        switch sample {
        case .sim(let r): return [labelled("sim", r.observations)]
        case .live(let l, _): return [labelled("live", l.observations)]
        case .overhead(let o): return [labelled("live", o.observations)]
        }
    }

    public static var hasTrace: Bool { true }

    public func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        switch sample {
        case .sim(let r): return [item.trace("sim", r.trace, runs: r.frameRuns)].filter { $0.eventCount > 0 }
        case .live(let l, let s):
            return [item.trace("live", l.trace), item.trace("sim", s.trace, runs: s.frameRuns)].filter { $0.eventCount > 0 }
        case .overhead: return []
        }
    }

    public func withoutTimeline(_ sample: Sample) -> Sample {
        switch sample {
        case .sim(var r):
            r.trace = []
            r.frameRuns = []
            return .sim(r)
        case .live(var l, var s):
            l.trace = []
            s.trace = []
            s.frameRuns = []
            return .live(l, sim: s)
        case .overhead: return sample
        }
    }
}
