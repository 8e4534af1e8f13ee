import Measurement
import Simulation

/// A throttle policy bench-throttle can run, by name: the `variant` column and `--variant`.
///
/// The suite's own policies and a user's are registered the same way, one line each:
///
/// ```swift
/// ThrottlerVariant(name: "every-3", origin: .user, summary: "publish every third commit") { _ in EveryThird() }
/// ```
///
/// The factory is called once per run (a fresh policy for every item, on the thread that runs the
/// item) with the run's `ThrottleParameters`. The initializer captures, for the concrete policy
/// type, the closures that simulate it and run it live, so the simulator and the live main loop are
/// compiled for that type rather than through an existential.
public struct ThrottlerVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    private let makePolicy: @Sendable (ThrottleParameters) -> any UpdateThrottler
    private let simulateRun: @Sendable (ThrottleParameters, ThrottleScenario, CommitTrace, Bool) -> ThrottleRunResult
    private let liveRun: @Sendable (ThrottleParameters, LiveThrottleRun.Run) -> ThrottleRunResult

    /// A policy from its factory, called once per run with the run's `ThrottleParameters`.
    public init<Policy: UpdateThrottler>(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        make: @escaping @Sendable (ThrottleParameters) -> Policy
    ) {
        info = VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault)
        makePolicy = { make($0) }
        simulateRun = { parameters, scenario, trace, recordTimeline in
            ThrottleExperiment.simulate(
                make(parameters),
                scenario: scenario,
                trace: trace,
                pipeline: parameters.pipeline,
                recordTimeline: recordTimeline
            )
        }
        liveRun = { parameters, run in run.run(make(parameters)) }
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }

    /// A fresh policy built with `parameters` (for tests and micro-benchmarks; the workload runs
    /// policies through `simulate` and the live main loop).
    public func make(_ parameters: ThrottleParameters = ThrottleParameters()) -> any UpdateThrottler { makePolicy(parameters) }

    func simulate(
        _ parameters: ThrottleParameters,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        recordTimeline: Bool
    ) -> ThrottleRunResult {
        simulateRun(parameters, scenario, trace, recordTimeline)
    }

    func runLive(_ parameters: ThrottleParameters, _ run: LiveThrottleRun.Run) -> ThrottleRunResult { liveRun(parameters, run) }

    /// The policy's type and stored properties as the factory builds it with the default
    /// `ThrottleParameters` (`--fixed-interval-ms`, `--debounce-ms`, `--max-age-ms` at their defaults).
    public var parameters: [VariantParameter] { VariantParameter.describing(make(), as: "policy") }
}

extension ThrottlerVariant {
    /// The suite's own policies, in the order `--list` shows them and the default run runs them.
    public static let builtIn: [ThrottlerVariant] = [
        ThrottlerVariant(name: "immediate", origin: .reference, summary: "publish on every commit") { _ in ImmediateThrottler() },
        ThrottlerVariant(name: "fixed-rate", origin: .reference, summary: "repeating timer publishes what is pending (--fixed-interval-ms)")
        {
            FixedRateThrottler(interval: $0.fixedInterval)
        },
        ThrottlerVariant(
            name: "signal-adaptive",
            origin: .signal,
            summary: "DatabaseChangeObserver, 20 fps display-link estimate -> 50 ms..1 s"
        ) { _ in SignalAdaptiveThrottler() },
        ThrottlerVariant(name: "signal-brief", origin: .article, summary: "the quoted simplification, 60..20 fps -> 50..500 ms") { _ in
            SignalBriefThrottler()
        },
        ThrottlerVariant(
            name: "signal-last-only",
            origin: .signal,
            summary: "DebouncedEvent lastOnly, fires N after the first request, never starves (--debounce-ms)"
        ) { SignalLastOnlyThrottler(interval: $0.debounceInterval) },
        ThrottlerVariant(
            name: "debounce-last",
            origin: .article,
            summary: "lastOnly as a re-arming trailing debounce, starves under a stream (--debounce-ms)"
        ) { DebounceLastThrottler(quietPeriod: $0.debounceInterval) },
        ThrottlerVariant(
            name: "throttle-first-last",
            origin: .signal,
            summary: "DebouncedEvent firstLast, async fire, then at most once per N (--debounce-ms)"
        ) { ThrottleFirstLastThrottler(interval: $0.debounceInterval) },
        ThrottlerVariant(
            name: "frame-budget",
            origin: .ours,
            summary: "fit updates into idle time before the next frame, bounded age (--max-age-ms)"
        ) { FrameBudgetThrottler(maxAge: $0.maxAge) },
    ]

    /// The suite's own policy named `name` (a programming error when there is none).
    package static func builtIn(_ name: String) -> ThrottlerVariant {
        guard let v = builtIn.first(where: { $0.name == name }) else { preconditionFailure("no built-in throttler '\(name)'") }
        return v
    }
}

extension VariantRegistry where Variant == ThrottlerVariant {
    /// The suite's own throttle policies.
    public static var throttlers: VariantRegistry<ThrottlerVariant> { VariantRegistry(builtIn: ThrottlerVariant.builtIn) }
}
