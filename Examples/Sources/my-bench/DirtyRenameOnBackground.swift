import BenchSuite
import Lifecycle

/// A lifecycle strategy a team might choose: changes kept in memory, saved only when something
/// changed, to a new file renamed over the old one and fsynced (atomic under a kill), inside a
/// background task when the app leaves the foreground; repeated scene-phase events collapsed,
/// non-critical initialisation after the first screen, migrations off main, half the caches purged
/// in the background, and a refresh sync with an expiration handler and one retry.
///
/// A lifecycle strategy is a declaration, not callbacks: bench-lifecycle's OS model executes it
/// under iOS's rules (watchdog, background time, jetsam, refresh windows) in virtual time, and the
/// live mode kills a real child process inside its saves.
let dirtyRenameOnBackground = LifecycleVariant(
    name: "dirty-rename-bg",
    origin: .user,
    summary: "in memory; when dirty, rename+fsync in a background task; deferred init, half purge",
    policy: LifecyclePolicy(
        persistence: .atTransitions,
        durability: .renameFsync,
        backgroundSave: .backgroundTask,
        debouncesScenePhase: true,
        savesOnlyWhenDirty: true,
        defersNonCriticalInit: true,
        migratesOffMain: true,
        cachePurgedInBackground: 0.5,
        refresh: LifecyclePolicy.Refresh(expirationHandler: true, retries: 1)
    )
)
