import Measurement

extension LifecycleVariant {
    /// The suite's own strategies, in `--list` order: one registration each, the path a user's takes.
    public static var builtIn: [LifecycleVariant] { [naive, article, signal, ours, articleNoRetry] }

    /// The article's "before": what its orchestrator replaces. Not Signal and not the article's
    /// design, so it is a `reference`.
    static let naive = LifecycleVariant(
        name: "naive",
        origin: .reference,
        summary:
            "the article's 'before': observers save in place synchronously on main at didEnterBackground and in willTerminate; eager init",
        policy: LifecyclePolicy(
            persistence: .atTransitions,
            durability: .inPlace,
            backgroundSave: .syncOnMain,
            savesAtWillTerminate: true,
            refresh: .init(expirationHandler: false)
        )
    )

    /// The article's orchestrator (intent-driven lifecycle orchestration).
    static let article = LifecycleVariant(
        name: "article",
        origin: .article,
        summary:
            "the article's orchestrator: background task + detached save, forceSave on expiration, Task(id:) debounce, deferred init, cache purge",
        policy: LifecyclePolicy(
            persistence: .atTransitions,
            durability: .rename,
            backgroundSave: .backgroundTaskForceSave,
            debouncesScenePhase: true,
            defersNonCriticalInit: true,
            cachePurgedInBackground: 1,
            refresh: .init(expirationHandler: true, retries: 2)
        )
    )

    /// What Signal's code does (docs/signal-fidelity.md, "Lifecycle").
    static let signal = LifecycleVariant(
        name: "signal",
        origin: .signal,
        summary:
            "Signal: every change committed to SQLite (WAL) as it happens; nothing saved at transitions; migrations off main; crash-loop counter",
        policy: LifecyclePolicy(
            persistence: .eachChange,
            durability: .sqliteWAL,
            backgroundSave: .none,
            defersNonCriticalInit: true,
            migratesOffMain: true,
            cachePurgedInBackground: 0.5,
            refresh: .init(expirationHandler: false, ownTimeoutSeconds: 27, retries: 0, resumable: true),
            crashLoopThreshold: 3
        )
    )

    /// Ours: Signal's policy, plus what the model shows the others get right (the article's full
    /// cache purge and its expiration handler with retries, kept within Signal's own timeout).
    static let ours = LifecycleVariant(
        name: "ours",
        origin: .ours,
        summary: "ours: Signal's per-change WAL commits and off-main migration, full cache purge, refresh retries within its own timeout",
        policy: {
            var p = signal.policy
            p.cachePurgedInBackground = 1
            p.refresh.expirationHandler = true
            p.refresh.retries = 2
            return p
        }()
    )

    /// The article's orchestrator with its expiration handler but without retries: separates what
    /// the handler buys from what the retries buy (not run unless named).
    static let articleNoRetry = LifecycleVariant(
        name: "article-no-retry",
        origin: .reference,
        summary: "control: the article's orchestrator without sync retries (expiration handler only)",
        isDefault: false,
        policy: {
            var p = article.policy
            p.refresh.retries = 0
            return p
        }()
    )
}
