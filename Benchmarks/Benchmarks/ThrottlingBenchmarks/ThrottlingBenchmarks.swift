// Per-call costs of the throttle policies and the virtual-time simulator's throughput.
//
// A policy is a value the host calls on the main thread; these benchmarks call it directly with
// prepared `ThrottleContext`s, in a steady state that every iteration leaves as it found it (time
// moves forward by a fixed step where the policy needs it), so each iteration measures the same
// path. See docs/micro-benchmarks.md for what each path is.
import Benchmark
import BenchmarkDefaults
import MicroKernels
import Simulation
import Throttling

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkDefaults.configuration()

    // The commit and publish paths of every policy (`PolicyPath`, which also checks each fixture).
    for path in PolicyPath.allCases {
        for policy in path.policies {
            Benchmark(path.name(policy)) { benchmark in
                let call = path.call(for: policy)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(call())
                }
            }
        }
    }

    // The simulator: one whole run of a fixed scenario per iteration; `simEvents` is the simulated
    // event count per run (constant: the run is deterministic), `simEventsPerSecond` what the
    // simulator sustains on this machine (see `PolicyFixtures.stretchedStorm` for the scenario).
    let scenario = PolicyFixtures.stretchedStorm
    let trace = ThrottleExperiment.trace(for: scenario, seed: 1)
    for policy in PolicyFixtures.simulatedPolicies {
        Benchmark(
            "ThrottleExperiment.simulate(\(scenario.name),\(policy.name))",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .simEvents, .simEventsPerSecond],
                scalingFactor: .one,
                maxDuration: .seconds(1),
                maxIterations: 150,
                thresholds: [
                    .mallocCountTotal: .init(relative: [.p90: 0], absolute: [.p90: 0]),
                    .simEvents: .init(relative: [.p90: 0], absolute: [.p90: 0]),
                    .wallClock: .init(relative: [.p90: 50]),
                    .simEventsPerSecond: .init(relative: [.p90: 50]),
                ]
            )
        ) { benchmark in
            let clock = ContinuousClock()
            let parameters = ThrottleParameters()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let start = clock.now
                let result = ThrottleExperiment.simulate(policy: policy, parameters: parameters, scenario: scenario, trace: trace)
                let elapsed = start.duration(to: clock.now)
                let events = result.metrics.events
                benchmark.measurement(.simEvents, events)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                benchmark.measurement(.simEventsPerSecond, Int(Double(events) / max(seconds, 1e-9)))
                blackHole(result)
            }
        }
    }
}

extension BenchmarkMetric {
    static var simEvents: Self { .custom("simEvents", polarity: .prefersSmaller, useScalingFactor: false) }
    static var simEventsPerSecond: Self { .custom("simEventsPerSecond", polarity: .prefersLarger, useScalingFactor: false) }
}
