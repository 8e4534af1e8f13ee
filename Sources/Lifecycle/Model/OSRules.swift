import Simulation

/// The OS's rules the lifecycle model enforces, each with the source its number comes from.
///
/// A number Apple documents is cited; a number only observed (a forum answer, a session talk) says
/// so; a number nobody publishes is an *assumption* and has a flag, so that a reader can move it
/// and see what the findings depend on (docs/bench-lifecycle.md lists them all).
package struct OSRules: Sendable, Hashable {
    /// Watchdog on launch (scene-create): Apple's "Addressing watchdog terminations" shows a
    /// scene-create transgression after an allowance of 19.97 s; we use 20 s.
    package var launchWatchdog = SimDuration.seconds(20)
    /// Watchdog on resume (scene-update): 10 s, as in crash reports of scene-update transgressions
    /// ("exhausted real (wall clock) time allowance of 10.00 seconds"); not documented by Apple.
    package var resumeWatchdog = SimDuration.seconds(10)
    /// `applicationDidEnterBackground(_:)` has "five seconds to perform any tasks and return"
    /// (Apple, "Extending your app's background execution time").
    package var backgroundTransition = SimDuration.seconds(5)
    /// `applicationWillTerminate(_:)` has "approximately five seconds" (Apple's documentation of
    /// the method).
    package var willTerminate = SimDuration.seconds(5)
    /// The time `beginBackgroundTask` buys: Apple documents only "a finite amount of time"; about
    /// 30 s since iOS 13 as observed by Apple DTS on the developer forums. A flag (`--bg-task-s`).
    package var backgroundTask = SimDuration.seconds(30)
    /// A BGAppRefreshTask's runtime: "30 seconds of runtime" (WWDC 2019 session 707).
    package var refreshTask = SimDuration.seconds(30)
    /// How long an expiration handler may take before the app is killed for not ending its task:
    /// undocumented ("blocking the app's suspension momentarily"). Assumption (`--expiration-grace-s`).
    package var expirationGrace = SimDuration.seconds(1)
    /// The footprint above which a background app is killed at a memory-pressure event: Apple
    /// publishes no limit (it depends on the device). Assumption (`--bg-limit-mb`).
    package var backgroundMemoryLimitMB: Double = 300

    package init() {}
}
