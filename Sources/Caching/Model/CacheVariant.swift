import Measurement

/// One cache design bench-cache can run, registered by name in `Suite.caches`: the suite's own
/// variants and a user's go through the same `VariantRegistry.register`.
///
/// The initializer takes factories of the user's type and captures, at registration, one closure
/// specialized for that type per mode: the simulation steps the concrete type (no existential
/// call per read) and live mode builds it shared the way `threading` says.
///
/// ```swift
/// try suite.caches.register(
///     CacheVariant(name: "clock", origin: .user, summary: "CLOCK (second chance)",
///                  sim: { capacity, _ in ClockCache(capacity: capacity) },
///                  live: { capacity, _ in ClockCache(capacity: capacity) }))
/// ```
public struct CacheVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    /// Which lifecycle events clear it (a user's default: today's rule, background in the main app
    /// for caches that opted in).
    public let lifecycle: LifecycleRule
    /// How live mode shares it between threads.
    public let threading: LiveThreading
    /// Signal 2018 predates the NSE size: every process gets `maxSize`.
    let ignoresNSESize: Bool
    /// What one call costs in the simulation (`OperationCostModel`).
    let cost: OperationCostModel.Shape
    /// `lru`: the simulation also runs the independent stack-distance reference, which must agree.
    let checkedByStackDistance: Bool
    /// The simulation of one item, specialized for the variant's type.
    let simulate: @Sendable (CacheSimulation.Request) -> CacheSimResult
    /// What its live factory builds, as `--list --verbose` and the same-parameters check read it:
    /// the type and every stored property of a fresh instance, so that a setting the factory
    /// captures (a second-chance count, a sampling size) tells two variants of one type apart.
    let liveConfiguration: @Sendable () -> [VariantParameter]
    /// A fresh sim instance (`Int` values) of `capacity` from `seed`: what a differential run
    /// steps one call at a time (`CacheCase`).
    let makeSim: @Sendable (_ capacity: Int, _ seed: UInt64) -> any CountBoundedCache<Int, Int>
    /// The live instance, shareable as `threading` says.
    let makeLive: @Sendable (_ capacity: Int, _ seed: UInt64) -> any CountBoundedCache<Int, CachedValue>

    /// A variant from two factories of the same design: `sim` builds it for the simulation
    /// (`Int` values), `live` for live mode (`CachedValue` objects). `capacity` is the size in the
    /// item's process context; `seed` is the item's own, for a design that draws random numbers.
    public init<Sim: CountBoundedCache<Int, Int>, Live: CountBoundedCache<Int, CachedValue>>(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        lifecycle: LifecycleRule = .current,
        threading: LiveThreading = .lockedByHarness,
        sim: @escaping @Sendable (_ capacity: Int, _ seed: UInt64) -> Sim,
        live: @escaping @Sendable (_ capacity: Int, _ seed: UInt64) -> Live
    ) {
        self.init(
            info: VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault),
            lifecycle: lifecycle,
            threading: threading,
            sim: sim,
            live: live
        )
    }

    /// The full form, for the suite's own generations of Signal's cache (the same defaults).
    init<Sim: CountBoundedCache<Int, Int>, Live: CountBoundedCache<Int, CachedValue>>(
        info: VariantInfo,
        lifecycle: LifecycleRule = .current,
        threading: LiveThreading = .lockedByHarness,
        ignoresNSESize: Bool = false,
        cost: OperationCostModel.Shape = .constant,
        checkedByStackDistance: Bool = false,
        sim: @escaping @Sendable (_ capacity: Int, _ seed: UInt64) -> Sim,
        live: @escaping @Sendable (_ capacity: Int, _ seed: UInt64) -> Live
    ) {
        self.info = info
        self.lifecycle = lifecycle
        self.threading = threading
        self.ignoresNSESize = ignoresNSESize
        self.cost = cost
        self.checkedByStackDistance = checkedByStackDistance
        // A fresh instance of the documented smallest sensible size, from seed 0: the same
        // factory gives the same description.
        liveConfiguration = {
            // An object's address ("<NSCache…: 0x5591…>") differs from instance to instance.
            VariantParameter.describing(live(Self.describedCapacity, 0), as: "type").map {
                VariantParameter($0.name, $0.value.replacing(/0x[0-9a-fA-F]+/, with: "0x…"))
            }
        }
        simulate = { CacheSimulation.run($0, cache: sim) }
        makeSim = { sim($0, $1) }
        switch threading {
        case .lockedByHarness: makeLive = { LockedCache(live($0, $1)) }
        case .threadSafe, .singleThreaded: makeLive = { live($0, $1) }
        }
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }

    /// What the live factory builds (its type and stored properties), the lifecycle rule that
    /// clears it, how live mode shares it, and the simulation's cost shape.
    public var parameters: [VariantParameter] {
        liveConfiguration() + [
            VariantParameter("lifecycle", String(describing: lifecycle)), VariantParameter("threading", String(describing: threading)),
            VariantParameter("cost", String(describing: cost)), VariantParameter("ignoresNSESize", String(ignoresNSESize)),
        ]
    }

    /// The capacity the instance `parameters` describes is built with.
    static let describedCapacity = 16

    /// Its size in `context`: 2018 predates the NSE size (every process gets maxSize); later
    /// generations, and every other design, use `isNSE ? nseMaxSize : maxSize`.
    public func capacity(for profile: CacheProfile, in context: ProcessContext) -> Int {
        if ignoresNSESize || context != .nse { return profile.maxSize }
        return profile.nseMaxSize
    }

    /// Whether live mode may call it from several threads.
    public var isThreadSafe: Bool { threading != .singleThreaded }
}
