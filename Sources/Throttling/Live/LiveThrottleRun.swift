import Foundation
import Measurement
import Simulation
import Synchronization

/// Runs one policy on one scenario live: a producer thread emits the trace on `clock`, the
/// calling thread is the main thread, and `backgroundThreads` threads burn CPU beside them for the
/// whole run. The main thread is the same `MainThreadMachine` the simulation steps.
public enum LiveThrottleRun {
    public static func run(
        policy: ThrottlerVariant,
        parameters: ThrottleParameters,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        backgroundThreads: Int,
        drainLimit: SimDuration = .seconds(30),
        recordTimeline: Bool = false,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) -> ThrottleRunResult {
        policy.runLive(
            parameters,
            Run(
                scenario: scenario,
                trace: trace,
                pipeline: parameters.pipeline,
                backgroundThreads: backgroundThreads,
                drainLimit: drainLimit,
                recordTimeline: recordTimeline,
                clock: clock
            )
        )
    }

    /// A live run of one policy, waiting for the policy's concrete type (`ThrottlerVariant`).
    struct Run: Sendable {
        let scenario: ThrottleScenario
        let trace: CommitTrace
        let pipeline: ThrottlePipeline
        let backgroundThreads: Int
        let drainLimit: SimDuration
        let recordTimeline: Bool
        let clock: any MonotonicClock

        /// The main thread's loop for `policy`, reading commits from `mailbox`.
        func mainLoop<P: UpdateThrottler>(_ policy: P, mailbox: Mailbox) -> LiveMainLoop<P> {
            LiveMainLoop(
                policy: policy,
                scenario: scenario,
                pipeline: pipeline,
                clock: clock,
                mailbox: mailbox,
                drainLimit: drainLimit,
                recordTimeline: recordTimeline
            )
        }

        func run<P: UpdateThrottler>(_ policy: P) -> ThrottleRunResult {
            let mailbox = Mailbox()
            let stop = StopFlag()
            let finished = DispatchGroup()
            let clock = clock
            let trace = trace
            for _ in 0..<backgroundThreads {
                finished.enter()
                Thread.detachNewThread {
                    var x: UInt64 = 1
                    while !stop.isSet {
                        for _ in 0..<4096 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                    }
                    if x == 42 { print("") }  // keep the loop from being optimized away
                    finished.leave()
                }
            }
            finished.enter()
            Thread.detachNewThread {
                // Open loop: each commit is posted at its own time, however busy the main thread is.
                for commit in trace {
                    clock.sleep(until: commit.time)
                    mailbox.post(commit)
                    if stop.isSet { break }
                }
                mailbox.close()
                finished.leave()
            }
            var loop = mainLoop(policy, mailbox: mailbox)
            let result = loop.run()
            stop.set()
            finished.wait()
            return result
        }
    }

    /// Runs the live main loop on a trace posted in full beforehand, with no producer or
    /// background threads: with a `TestClock` this is live-mode logic made deterministic (tests
    /// compare it with the simulation).
    package static func runPreposted<P: UpdateThrottler>(
        _ policy: P,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        pipeline: ThrottlePipeline = .conversation,
        clock: any MonotonicClock,
        drainLimit: SimDuration = .seconds(30)
    ) -> ThrottleRunResult {
        let mailbox = Mailbox()
        for commit in trace { mailbox.post(commit) }
        mailbox.close()
        let run = Run(
            scenario: scenario,
            trace: trace,
            pipeline: pipeline,
            backgroundThreads: 0,
            drainLimit: drainLimit,
            recordTimeline: true,
            clock: clock
        )
        var loop = run.mainLoop(policy, mailbox: mailbox)
        return loop.run()
    }
}

/// A flag the main thread raises to stop its helper threads.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
