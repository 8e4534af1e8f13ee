import Measurement

extension ReadinessVariant {
    /// The suite's own coordinators, in `--list` order (names fixed: results and baselines key on them): one registration
    /// each, the path a user's takes. Their live form is the real class of their discipline: the
    /// article's queue.sync class, or Signal's flag-first (which every other design shares).
    public static var builtIn: [ReadinessVariant] {
        [signal, signal2018, signal2021LIFO, articleLightweight, intentOrchestrator, frameAware]
    }

    static let signal = ReadinessVariant(
        name: "signal",
        origin: .signal,
        summary:
            "Signal today (ReadyFlag): flag first; will then did FIFO in the ready turn; polite chain 25 ms apart; post-ready polite overtake",
        sim: { SignalReadiness(session: $0, nonStrictSort: false) },
        live: { FlagFirstReadiness() }
    )

    static let signal2018 = ReadinessVariant(
        name: "signal-2018",
        origin: .signal,
        summary: "Signal 2018 (AppReadiness.m): one list, flag first, everything run synchronously at ready (a stampede)",
        sim: { Signal2018Readiness(session: $0) },
        live: { FlagFirstReadiness() }
    )

    static let signal2021LIFO = ReadinessVariant(
        name: "signal-2021-lifo",
        origin: .signal,
        summary: "Signal ~2021: lists sorted with a non-strict <= comparator, all priority 0: Swift's sort runs them LIFO",
        sim: { SignalReadiness(session: $0, nonStrictSort: true) },
        live: { FlagFirstReadiness() }
    )

    static let articleLightweight = ReadinessVariant(
        name: "article-lightweight",
        origin: .article,
        summary: "the article's class: serial queue, tasks run in queue.sync on the caller before the flag is set",
        sim: { ArticleLightweightReadiness(session: $0) },
        live: { LightweightAppReadiness() }
    )

    /// From the lifecycle article (no counterpart in Signal).
    static let intentOrchestrator = ReadinessVariant(
        name: "intent-orchestrator",
        origin: .article,
        summary: "the lifecycle article: intents with priorities, started by an orchestrator on scene activation",
        sim: { IntentOrchestrator(session: $0) },
        live: { FlagFirstReadiness() }
    )

    static let frameAware = ReadinessVariant(
        name: "frame-aware",
        origin: .ours,
        summary: "ours: will/did as Signal; deferred work FIFO, started only where it fits before the next frame, input first",
        sim: { FrameAwareScheduler(session: $0, parameters: $0.frameAware) },
        live: { FlagFirstReadiness() }
    )
}
