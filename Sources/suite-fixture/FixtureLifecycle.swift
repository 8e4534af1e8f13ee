import BenchSuite
import Lifecycle
import Measurement

/// A user's lifecycle strategy: dirty-only saves in the background, written by rename. Not run by
/// default: the tests name it.
func registerFixtureLifecycle(_ suite: inout Suite) throws(BenchFailure) {
    // The same strategy with a purge share that is not a share: breaks the lifecycle contract.
    var nanPurge = LifecyclePolicy(
        persistence: .atTransitions,
        durability: .rename,
        backgroundSave: .backgroundTask,
        savesOnlyWhenDirty: true
    )
    nanPurge.cachePurgedInBackground = .nan
    try suite.lifecycleStrategies.register(
        LifecycleVariant(name: "nan-purge", origin: .user, summary: "purges a NaN share of its caches", isDefault: false, policy: nanPurge)
    )
    try suite.lifecycleStrategies.register(
        LifecycleVariant(
            name: "fixture-rename",
            origin: .user,
            summary: "dirty-only background saves, by rename",
            isDefault: false,
            policy: LifecyclePolicy(
                persistence: .atTransitions,
                durability: .rename,
                backgroundSave: .backgroundTask,
                savesOnlyWhenDirty: true,
                refresh: .init(expirationHandler: true)
            )
        )
    )
}
