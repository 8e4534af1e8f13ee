import Foundation
import Measurement
import Simulation

/// A launch on real threads: the plan's turns on a `LiveMainExecutor` thread, frames from a real
/// vsync timer thread, input and later main-thread registrations from a real timer thread,
/// off-main registrations from real background threads (one each), and CPU burnt for every cost.
package enum LiveLaunchRun {
    package struct Outcome: Sendable {
        package var recorder: LaunchRecorder
        /// Everything ran before the deadline.
        package var drained: Bool
        /// The first broken rule of `ReadinessContract`: a block run twice, off its thread, or
        /// never started before the run ended (drained, or cut off by the time limit: a policy
        /// that holds a block for 30 s has not started it, however it reports its work).
        package var violation: ContractViolation?
    }

    package static func run(
        plan: LaunchPlan,
        globals: GlobalsStrategy,
        variant: ReadinessVariant,
        parameters: FrameAwareScheduler.Parameters,
        clock: any MonotonicClock = SystemMonotonicClock(),
        limit: SimDuration = .seconds(30)
    ) -> Outcome {
        let executor = LiveMainExecutor(clock: clock, frameInterval: plan.profile.frameInterval)
        let session = LaunchSession(
            plan: plan,
            executor: executor,
            globals: globals,
            frameAware: parameters,
            offMainWork: { d in clock.burn(until: clock.now() + d) }
        )
        let policy = variant.policy(session: session)
        session.isOnMainExecutor = { executor.isCurrentThread }

        // Timed arrivals on the main executor: inputs and later main-thread registrations.
        var timed: [(SimInstant, @Sendable () -> Void, SimInstant?)] = plan.inputs.map { input in
            (input.time, { session.handleInput(input) }, input.time)
        }
        var offMain: [(SimInstant, ReadinessBlock)] = []
        for block in plan.blocks {
            switch block.registration {
            case .launch: break
            case .main(let t): timed.append((t, { policy.register(block) }, nil))
            case .offMain(let t): offMain.append((t, block))
            }
        }
        timed.sort { $0.0 < $1.0 }
        executor.expectArrivals(timed.count + offMain.count)
        executor.async { session.launchJob(policy: policy) }

        var threads: [Thread] = []
        let arrivals = timed
        threads.append(
            Thread {
                for (time, job, input) in arrivals {
                    clock.sleep(until: time)
                    executor.deliver(job, input: input)
                }
            }
        )
        for (time, block) in offMain {
            threads.append(
                Thread {
                    clock.sleep(until: time)
                    policy.registerOffMain(block)
                    executor.arrivalDone()
                }
            )
        }
        let vsync = Thread { executor.runVsyncs() }
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        let main = Thread {
            result.drained = executor.runLoop(session: session, policy: policy, deadline: SimInstant.zero + limit)
            done.signal()
        }
        main.name = "main-executor"
        for t in threads {
            t.start()
        }
        vsync.start()
        main.start()
        done.wait()
        // The vsync thread sees `stopped` at its next vsync; wait that long so it never outlives the run.
        clock.sleep(for: plan.profile.frameInterval * 2)
        let violation = session.recorder.contractViolation(
            plan: plan,
            end: clock.now(),
            endedBy: result.drained ? nil : "the live time limit of \(limit.seconds) s"
        )
        return Outcome(recorder: session.recorder, drained: result.drained, violation: violation)
    }

    /// The executor thread's verdict, written before `done` is signalled and read after.
    private final class ResultBox: @unchecked Sendable {
        var drained = false
    }
}
