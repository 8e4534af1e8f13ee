import Foundation
import Measurement
import Simulation
import Synchronization

/// Runs one policy on one scenario live: a producer thread emits the trace on the real
/// monotonic clock, the calling thread is the main thread, and `backgroundThreads` threads burn
/// CPU beside them for the whole run.
public enum LiveThrottleRun {
    public static func run(
        policy: ThrottlePolicy, parameters: ThrottlePolicy.Parameters, scenario: ThrottleScenario,
        trace: CommitTrace, backgroundThreads: Int, drainLimit: SimDuration = .seconds(30), recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        let p = parameters
        return switch policy {
        case .immediate: run(ImmediateThrottler(), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .fixedRate: run(FixedRateThrottler(interval: p.fixedInterval), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .signalAdaptive: run(SignalAdaptiveThrottler(), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .signalBrief: run(SignalBriefThrottler(), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .debounceLast: run(DebounceLastThrottler(quietPeriod: p.debounceInterval), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .throttleFirstLast: run(ThrottleFirstLastThrottler(interval: p.debounceInterval), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        case .frameBudget: run(FrameBudgetThrottler(maxAge: p.maxAge), scenario, trace, backgroundThreads, drainLimit, recordTimeline)
        }
    }

    static func run<P: UpdateThrottler>(
        _ policy: P, _ scenario: ThrottleScenario, _ trace: CommitTrace, _ backgroundThreads: Int,
        _ drainLimit: SimDuration, _ recordTimeline: Bool
    ) -> ThrottleRunResult {
        let mailbox = Mailbox()
        let stop = StopFlag()
        let finished = DispatchGroup()
        let clock = MonotonicClock()
        for _ in 0..<backgroundThreads {
            finished.enter()
            Thread.detachNewThread {
                var x: UInt64 = 1
                while !stop.isSet {
                    for _ in 0..<4096 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
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
        var loop = LiveMainLoop(policy: policy, scenario: scenario, clock: clock, mailbox: mailbox,
                                drainLimit: drainLimit, recordTimeline: recordTimeline)
        let (metrics, timeline) = loop.run()
        stop.set()
        finished.wait()
        return ThrottleRunResult(metrics: metrics, timeline: timeline,
                                 observations: metrics.observations(bytesPerRow: scenario.bytesPerPendingRow))
    }
}

/// A flag the main thread raises to stop its helper threads.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
