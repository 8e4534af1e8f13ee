import Locking
import Simulation
import Throttling
import Timekeeping

/// The micro-benchmarks whose instruction counts are gated: every one that is deterministic and
/// single-threaded, under the name its ordo-one benchmark has.
///
/// Left out: the real clock reads (`SystemClock.now`, `Date.init`, `SuspendingClock.now`, …). Their
/// instructions are the kernel's vDSO and its clocksource (TSC, HPET, a hypervisor's), so their
/// count says which host ran them, not what our code does.
public enum InstructionKernels {
    public static let all: [InstructionKernel] = locking + throttling + timekeeping

    static let locking: [InstructionKernel] = LockingMicroBenchmarks.pairs.map { variant, operation in
        InstructionKernel(name: "LockingBenchmarks." + LockingMicroBenchmarks.name(variant, operation), operations: 1_000) {
            var loop = UncontendedLoop(variant: variant, operation: operation)!
            return { count in
                keep(loop.run(count))
                if !loop.isConsistent { fatalError("\(variant.name) lost an update running \(operation.rawValue) alone") }
            }
        }
    }

    static let throttling: [InstructionKernel] = {
        var kernels: [InstructionKernel] = []
        for policy in ThrottlerVariant.builtIn {
            kernels.append(
                InstructionKernel(name: "ThrottlingBenchmarks.UpdateThrottler.commitArrived(\(policy.name))", operations: 1_000) {
                    let path = checked(PolicyFixtures.make(policy), policy)
                    return { count in for _ in 0..<count { keep(path.commit()) } }
                }
            )
        }
        for policy in ThrottlerVariant.builtIn where policy.name != "immediate" {
            kernels.append(
                InstructionKernel(name: "ThrottlingBenchmarks.UpdateThrottler.publish(\(policy.name))", operations: 1_000) {
                    let path = checked(PolicyFixtures.make(policy), policy)
                    return { count in for _ in 0..<count { keep(path.publish()) } }
                }
            )
        }
        // One operation is one whole run of the stretched slow-device storm, as in the ordo-one
        // benchmark of the same name.
        let scenario = PolicyFixtures.stretchedStorm
        for policy in PolicyFixtures.simulatedPolicies {
            kernels.append(
                InstructionKernel(
                    name: "ThrottlingBenchmarks.ThrottleExperiment.simulate(\(scenario.name),\(policy.name))",
                    operations: 1
                ) {
                    let trace = ThrottleExperiment.trace(for: scenario, seed: 1)
                    let parameters = ThrottleParameters()
                    return { count in
                        for _ in 0..<count {
                            keep(ThrottleExperiment.simulate(policy: policy, parameters: parameters, scenario: scenario, trace: trace))
                        }
                    }
                }
            )
        }
        // One operation is one whole throughput run (50,000 commits): the simulator's own cost
        // per event, arrivals included, so that it cannot slow down unnoticed (issue 20). It has
        // no ordo-one twin: its wall clock is scripts/measure-throttle.sh's, beside a C event loop.
        let throughput = PolicyFixtures.throughputRun
        let throughputPolicy = PolicyFixtures.throughputPolicy
        kernels.append(
            InstructionKernel(
                name: "ThrottlingBenchmarks.ThrottleExperiment.simulate(\(throughput.name),\(throughputPolicy.name))",
                operations: 1
            ) {
                let trace = ThrottleExperiment.trace(for: throughput, seed: 1)
                let parameters = ThrottleParameters()
                return { count in
                    for _ in 0..<count {
                        keep(
                            ThrottleExperiment.simulate(
                                policy: throughputPolicy,
                                parameters: parameters,
                                scenario: throughput,
                                trace: trace
                            )
                        )
                    }
                }
            }
        )
        return kernels
    }()

    /// One operation is one read; every 1,000 reads walk true time through the whole schedule, so
    /// N and 2N reads see the same mix of segments.
    static let timekeeping: [InstructionKernel] = ClockKind.allCases.map { kind in
        InstructionKernel(name: "TimekeepingBenchmarks.SimulatedClock.now(\(kind.name))", operations: 1_000) {
            let virtualNow = VirtualNow()
            let clock = SimulatedClock(kind, schedule: ClockFixtures.skewSchedule, now: virtualNow)
            let step: Int64 = 800 * 1_000_000_000 / 1_000
            return { count in
                for i in 0..<count {
                    virtualNow.trueTime = Int64(i % 1_000) * step
                    keep(clock.now())
                }
            }
        }
    }

    static func checked(_ path: AnyPolicyPaths, _ policy: ThrottlerVariant) -> AnyPolicyPaths {
        if let mismatch = path.mismatch(policy) { fatalError(mismatch) }
        return path
    }
}
