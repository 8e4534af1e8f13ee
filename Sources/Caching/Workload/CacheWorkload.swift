import Foundation
import Measurement
import Records
import Simulation

/// bench-cache as a `Workload`.
///
/// Sim items: every (trace, seed, context, capacity, variant) in virtual time — the sizes of
/// Signal's callers swept in the main app, and each trace's own cache in the NSE and the share
/// extension. Live items: every (operation, capacity, threads, variant) on the real classes.
///
/// The variants come from a `VariantRegistry<CacheVariant>` (the command passes `Suite.caches`);
/// an item of a `user` variant, virtual time or live, runs in a child process
/// (`IsolatingWorkload`), so a user's cache that traps or hangs fails its item, not the run.
public struct CacheWorkload: IsolatingWorkload, FoldingWorkload, EnvironmentWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    public typealias Variant = CacheVariant

    public struct Item: Sendable {
        public var scenario: String
        public var variant: CacheVariant
        public var seed: UInt64
        public var repetition: Int
        public var context: ProcessContext
        /// The configured main-app maxSize (the factor); the effective size depends on the context.
        public var capacity: Int
        public var threads: Int
        /// Sim: the trace and its cache.
        public var trace: AccessTrace?
        public var profile: CacheProfile
        /// Live: what to measure.
        public var operation: LiveOperation?
    }

    public enum Sample: Sendable, Codable {
        case sim(CacheSimResult)
        case live(LiveCacheResult)
    }

    public static let name = "cache"
    public let configuration: CacheConfiguration
    public let environment: Environment
    public let variants: [CacheVariant]
    public let scenarios: [CacheScenario]
    public let contexts: [ProcessContext]
    public let seeds: [UInt64]
    public let userTrace: KeyTraceFile?
    public let items: [Item]
    let live: LiveCacheBench?
    public var factorNames: [String] { ["context", "capacity", "threads"] }

    /// Live items count allocations with `jemalloc` (nil: not counted) and time with `clock`.
    package init(
        configuration: CacheConfiguration,
        environment: Environment = Environment(),
        jemalloc: JemallocCounters? = nil,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) throws {
        self.configuration = configuration
        self.environment = environment
        let selection = environment.selection
        variants = try environment.selectedVariants()
        contexts = try MatrixSelection.resolve(configuration.contexts, flag: "--context", from: ProcessContext.allCases, name: \.rawValue)
        for c in configuration.capacities where !(0...1_000_000).contains(c) {
            throw BenchFailure.usage("--capacity must be between 0 and 1000000, got \(c)")
        }
        if let reads = configuration.reads, !(1...10_000_000).contains(reads) {
            throw BenchFailure.usage("--reads must be between 1 and 10000000, got \(reads)")
        }
        let matrix =
            switch configuration.mode {
            case .sim: try Self.simMatrix(configuration, selection: selection, variants: variants, contexts: contexts)
            case .live:
                try Self.liveMatrix(configuration, environment: environment, variants: variants, jemalloc: jemalloc, clock: clock)
            }
        live = matrix.live
        userTrace = matrix.userTrace
        scenarios = matrix.scenarios
        seeds = matrix.seeds
        let items = matrix.items
        guard !items.isEmpty else { throw BenchFailure.usage("the selection is empty") }
        self.items = items
    }

    public func label(_ item: Item) -> String {
        "\(item.scenario) \(item.context.rawValue) \(item.capacity) \(item.variant.name)"
            + (item.operation != nil ? " \(item.threads)t" : "") + " seed \(item.seed)"
    }

    public func timing(_ item: Item) -> ItemTiming { item.operation == nil ? .virtual : .real }

    /// A user's cache runs in a child process, in virtual time as in live: code the suite does not
    /// control may trap or hang.
    public func runsInChildProcess(_ item: Item) -> Bool { item.variant.info.origin == .user }

    public func run(_ item: Item) throws -> Sample {
        if let operation = item.operation, let live {
            return .live(try live.run(operation, variant: item.variant, capacity: item.capacity, threads: item.threads, seed: item.seed))
        }
        let result = CacheSimulation.run(
            variant: item.variant,
            trace: item.trace!,
            profile: item.profile,
            context: item.context,
            seed: item.seed,
            store: configuration.store,
            reference: item.variant.checkedByStackDistance,
            recordTimeline: recordTimeline
        )
        if let violation = result.violation { throw violation }
        return .sim(result)
    }

    public func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        let observations: [Observation]
        let mode: String
        switch sample {
        case .sim(let r): (observations, mode) = (r.observations, "sim")
        case .live(let r): (observations, mode) = (r.observations, "live")
        }
        return [
            LabelledObservations(
                scenario: item.scenario,
                variant: item.variant.name,
                mode: mode,
                seed: item.seed,
                repetition: item.repetition,
                factors: ["context": item.context.rawValue, "capacity": "\(item.capacity)", "threads": "\(item.threads)"],
                observations: observations
            )
        ]
    }
}
