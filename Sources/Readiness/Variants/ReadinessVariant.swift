import Simulation

/// The launch-coordination designs compared (`--variant`). Names are fixed by issue 12.
package enum ReadinessVariant: String, CaseIterable, Sendable {
    case signal
    case signal2018 = "signal-2018"
    case signal2021LIFO = "signal-2021-lifo"
    case articleLightweight = "article-lightweight"
    case intentOrchestrator = "intent-orchestrator"
    case frameAware = "frame-aware"

    package var summary: String {
        switch self {
        case .signal:
            "Signal today (ReadyFlag): flag first; will then did FIFO in the ready turn; polite chain 25 ms apart; post-ready polite overtake"
        case .signal2018: "Signal 2018 (AppReadiness.m): one list, flag first, everything run synchronously at ready (a stampede)"
        case .signal2021LIFO: "Signal ~2021: lists sorted with a non-strict <= comparator, all priority 0: Swift's sort runs them LIFO"
        case .articleLightweight: "the article's class: serial queue, tasks run in queue.sync on the caller before the flag is set"
        case .intentOrchestrator: "the lifecycle article: intents with priorities, started by an orchestrator on scene activation"
        case .frameAware: "ours: will/did as Signal; deferred work FIFO, started only where it fits before the next frame, input first"
        }
    }

    package func makePolicy(session: LaunchSession, parameters: FrameAwareScheduler.Parameters = .init()) -> any ReadinessPolicy {
        switch self {
        case .signal: SignalReadiness(session: session, nonStrictSort: false)
        case .signal2021LIFO: SignalReadiness(session: session, nonStrictSort: true)
        case .signal2018: Signal2018Readiness(session: session)
        case .articleLightweight: ArticleLightweightReadiness(session: session)
        case .intentOrchestrator: IntentOrchestrator(session: session)
        case .frameAware: FrameAwareScheduler(session: session, parameters: parameters)
        }
    }
}
