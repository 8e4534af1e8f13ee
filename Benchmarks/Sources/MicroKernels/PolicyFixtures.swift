import Simulation
import Throttling

/// A policy in a steady state, and the two calls the benchmarks measure on it.
///
/// `commit()` calls `commitArrived` at a fixed time shortly after a publish, so the policy holds
/// the update back (except `immediate`, whose every commit publishes). `publish()` moves virtual
/// time forward by the step after which the policy publishes again and calls the callback that
/// publishes, then `updateApplied`. Both leave the policy in the state they found it in.
struct SteadyPolicy<Policy: UpdateThrottler> {
    var policy: Policy
    /// The callback that publishes (`timerFired`, `displayLinkTicked`, `frameCompleted`, …).
    let publishCall: (inout Policy, ThrottleContext) -> ThrottleDecision
    /// Virtual time between two publishes on the publish path.
    let step: SimDuration
    var commitContext: ThrottleContext
    var publishContext: ThrottleContext

    mutating func commit() -> ThrottleDecision {
        policy.commitArrived(commitContext)
    }

    mutating func publish() -> ThrottleDecision {
        publishContext.now = publishContext.now + step
        publishContext.nextVsync = publishContext.now + .milliseconds(4)
        let decision = publishCall(&policy, publishContext)
        policy.updateApplied(rows: 16, reset: false, cost: .microseconds(3_000))
        return decision
    }
}

/// The two paths for any policy, behind one type so the benchmark loops are not generic.
///
/// Shared by the ordo-one benchmarks (`ThrottlingBenchmarks`) and the instruction counter
/// (`instruction-counts`), so both measure the same fixture.
public enum PolicyFixtures {
    static let vsync = SimDuration(nanoseconds: 16_666_667)

    /// The slow-device storm stretched to 100 s of virtual time (80 s of storm): every simulated
    /// run also pays a fixed ~0.8 ms (mostly its latency histogram), which the catalogue's 10 s
    /// version would make most of the measurement.
    public static let stretchedStorm: ThrottleScenario = {
        var storm = ThrottleScenario.catalogue.first { $0.name == "storm-slow" }!.scaled(by: 10)
        storm.name = "storm-slow-100s"
        return storm
    }()

    /// The simulator's throughput run, `bench-throttle --scenario steady --rate 1000
    /// --duration 50`: Poisson commits at 1,000 per second of geometric rows (mean 3), 50 s of
    /// virtual time, about 50,000 commits and 109,000 events per run, almost all of them the
    /// simulator's own work (arrivals generated as it goes, the heap, the pipeline, the latency
    /// histogram) rather than a policy's.
    public static let throughputRun: ThrottleScenario = {
        var steady = ThrottleScenario.catalogue.first { $0.name == "steady" }!
        steady.name = "steady-1000-per-s-50s"
        steady.arrivals = .poisson(rate: 1000, rows: .geometric(mean: 3))
        steady.duration = .seconds(50)
        return steady
    }()

    /// The policy of the throughput run: `fixed-rate`, whose own work per commit is the least.
    public static let throughputPolicy: ThrottlerVariant = ThrottlerVariant.builtIn.first { $0.name == "fixed-rate" }!

    /// The policies whose whole simulated runs are measured.
    public static let simulatedPolicies: [ThrottlerVariant] = ["signal-adaptive", "frame-budget"].map { name in
        ThrottlerVariant.builtIn.first { $0.name == name }!
    }

    /// The main thread's view mid-storm: 3 commits of ~16 rows pending, the oldest 1 ms old.
    static func context(at now: SimInstant) -> ThrottleContext {
        ThrottleContext(
            now: now,
            pendingRows: 48,
            pendingCommits: 3,
            oldestPending: now - .milliseconds(1),
            oldestPendingRows: 16,
            vsyncInterval: vsync,
            nextVsync: now + .milliseconds(4),
            frameQueued: false,
            resetThreshold: 300
        )
    }

    public static func make(_ policy: ThrottlerVariant) -> AnyPolicyPaths {
        let p = ThrottleParameters()
        switch policy.name {
        case "immediate":
            return AnyPolicyPaths(prepared(ImmediateThrottler(), step: vsync) { $0.commitArrived($1) })
        case "fixed-rate":
            // The repeating timer fires every interval and publishes what is pending.
            return AnyPolicyPaths(prepared(FixedRateThrottler(interval: p.fixedInterval), step: p.fixedInterval) { $0.timerFired($1) })
        case "signal-adaptive":
            // A display-link tick once the target interval (50 ms with no load) has passed.
            return AnyPolicyPaths(prepared(SignalAdaptiveThrottler(), step: .milliseconds(50)) { $0.displayLinkTicked($1) })
        case "signal-brief":
            // The commit path sees a full second of 60 Hz frames (a 50 ms interval). The publish
            // path presents none after the preparation, so it runs at the heavy end (500 ms), and
            // the timer armed at the last attempt publishes.
            return AnyPolicyPaths(
                prepared(SignalBriefThrottler(), step: SignalBriefThrottler.longInterval, presentFrames: true) { $0.timerFired($1) }
            )
        case "signal-last-only":
            // The first commit enqueued the fire N later; the timer publishes.
            return AnyPolicyPaths(
                prepared(SignalLastOnlyThrottler(interval: p.debounceInterval), step: p.debounceInterval) { $0.timerFired($1) }
            )
        case "debounce-last":
            return AnyPolicyPaths(
                prepared(DebounceLastThrottler(quietPeriod: p.debounceInterval), step: p.debounceInterval) { $0.timerFired($1) }
            )
        case "throttle-first-last":
            // The trailing edge: a commit inside the open window, then the timer that publishes it.
            return AnyPolicyPaths(
                prepared(ThrottleFirstLastThrottler(interval: p.debounceInterval), step: p.debounceInterval) {
                    _ = $0.commitArrived($1)
                    return $0.timerFired($1)
                }
            )
        case "frame-budget":
            // A frame just finished with room before the next vsync: the update that fits goes now.
            return AnyPolicyPaths(
                prepared(FrameBudgetThrottler(maxAge: p.maxAge), step: vsync) {
                    $0.frameCompleted($1, frameCost: .milliseconds(4))
                }
            )
        default:
            fatalError("no fixture for throttler '\(policy.name)'")
        }
    }

    /// Drives a fresh policy into its steady state: some frames and updates observed, one publish
    /// at `start`, and the commit context 1 ms after it.
    static func prepared<Policy: UpdateThrottler>(
        _ fresh: Policy,
        step: SimDuration,
        presentFrames: Bool = false,
        publishCall: @escaping (inout Policy, ThrottleContext) -> ThrottleDecision
    ) -> SteadyPolicy<Policy> {
        var policy = fresh
        let start = SimInstant(nanoseconds: 2_000_000_000)
        var frame = SimInstant.zero
        while frame < start {
            _ = policy.frameCompleted(context(at: frame), frameCost: .milliseconds(4))
            if presentFrames { policy.framePresented(at: frame) }
            frame = frame + vsync
        }
        for _ in 0..<8 { policy.updateApplied(rows: 16, reset: false, cost: .microseconds(3_000)) }
        var paths = SteadyPolicy(
            policy: policy,
            publishCall: publishCall,
            step: step,
            commitContext: context(at: start + .milliseconds(1)),
            publishContext: context(at: start)
        )
        _ = paths.policy.commitArrived(context(at: start))
        // Enough rounds of each path that lazily grown storage is at its steady size before
        // measuring: `signal-adaptive`'s estimator keeps 5 s of display-link ticks (100 at its
        // 50 ms step) and its samples-at-decision histogram grows with that count, so with only
        // a few rounds the first ~100 measured publishes allocated (0.1 per publish).
        for _ in 0..<256 {
            _ = paths.publish()
            // Each warm-up commit 1 ms after the publish before it, as the measured one is: a
            // commit dated before the last publish would be due under Signal's `abs()` of the
            // elapsed time, publish, and leave the last publish in the past.
            paths.commitContext = context(at: paths.publishContext.now + .milliseconds(1))
            _ = paths.commit()
        }
        let lastPublish = paths.publishContext.now
        if presentFrames {
            // A full second of presented frames before the commit, as a 60 Hz screen shows them.
            var t = lastPublish - .seconds(1) + vsync
            while t <= lastPublish {
                paths.policy.framePresented(at: t)
                t = t + vsync
            }
        }
        paths.commitContext = context(at: lastPublish + .milliseconds(1))
        return paths
    }
}

/// `SteadyPolicy` with the policy type erased: one indirect call per measured call.
public struct AnyPolicyPaths {
    public let commit: () -> ThrottleDecision
    public let publish: () -> ThrottleDecision

    /// Whether the two paths still do what the benchmark names say: the publish path publishes,
    /// and the commit path holds the update back, except for the policies that decide on every
    /// commit. Runs each path once; nil when both behave.
    public func mismatch(_ policy: ThrottlerVariant) -> String? {
        let commitPublishes = policy.name == "immediate" || policy.name == "frame-budget"
        if (commit().publish != .nothing) != commitPublishes {
            return "\(policy.name): commitArrived \(commitPublishes ? "held back" : "published"), the fixture expects the opposite"
        }
        if publish().publish == .nothing {
            return "\(policy.name): the publish path did not publish"
        }
        return nil
    }

    init<Policy: UpdateThrottler>(_ paths: SteadyPolicy<Policy>) {
        let box = Box(paths)
        commit = { box.value.commit() }
        publish = { box.value.publish() }
    }

    final class Box<Policy: UpdateThrottler> {
        var value: SteadyPolicy<Policy>
        init(_ value: SteadyPolicy<Policy>) { self.value = value }
    }
}
