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
        for path in PolicyPath.allCases {
            for policy in path.policies {
                kernels.append(
                    InstructionKernel(name: "ThrottlingBenchmarks." + path.name(policy), operations: 1_000) {
                        let call = path.call(for: policy)
                        return { count in for _ in 0..<count { keep(call()) } }
                    }
                )
            }
        }
        // One operation is one whole run of a scenario: the stretched slow-device storm under each
        // simulated policy, as in the ordo-one benchmark of the same name; and the throughput run
        // (50,000 commits), the simulator's own cost per event, arrivals included, so that it cannot
        // slow down unnoticed. That one has no ordo-one twin: its wall clock is
        // scripts/measure-throttle.sh's, beside a C event loop.
        let runs =
            PolicyFixtures.simulatedPolicies.map { (PolicyFixtures.stretchedStorm, $0) }
            + [(PolicyFixtures.throughputRun, PolicyFixtures.throughputPolicy)]
        for (scenario, policy) in runs {
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
}
