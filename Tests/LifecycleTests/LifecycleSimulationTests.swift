import Measurement
import Simulation
import XCTest

@testable import Lifecycle

/// The OS model's rules, one at a time, each with a control that shows the rule can bite.
final class LifecycleSimulationTests: XCTestCase {
    func testSameSeedSameTallyAndSeedsDiffer() {
        let shape = LifecycleScenario.slowDevice.shape
        let a = SessionGenerator.sessions(30, shape: shape, profile: AppProfile(), seed: 5)
        let b = SessionGenerator.sessions(30, shape: shape, profile: AppProfile(), seed: 5)
        let c = SessionGenerator.sessions(30, shape: shape, profile: AppProfile(), seed: 6)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        for v in LifecycleVariant.builtIn {
            let sim = LifecycleSimulation(policy: v.policy)
            XCTAssertEqual(sim.run(a).tally, sim.run(b).tally, v.name)
        }
    }

    /// A synchronous in-place save on main longer than the background transition's 5 s: the
    /// watchdog kills the app inside the save and the next launch finds a torn file, losing every
    /// acknowledged change. The same save by rename (atomic) tears nothing.
    func testWatchdogInsideAnInPlaceSaveTearsTheState() throws {
        var profile = AppProfile()
        profile.fullSave = .seconds(6)
        let trace = editsThenBackground(then: "70000 kill")
        let naive = try runTrace(trace, builtIn("naive"), profile: profile).tally
        XCTAssertEqual(naive.watchdogKills, 1)
        XCTAssertEqual(naive.corruptLaunches, 1)
        XCTAssertEqual(naive.acknowledgedLost, 5)
        var atomic = builtIn("naive")
        atomic.durability = .rename
        let renamed = try runTrace(trace, atomic, profile: profile).tally
        XCTAssertEqual(renamed.watchdogKills, 1)
        XCTAssertEqual(renamed.corruptLaunches, 0)
        XCTAssertEqual(renamed.acknowledgedLost, 5, "nothing saved: the previous state, minus the five changes")
        // The control: a save that fits in 5 s loses nothing.
        let fast = try runTrace(trace, builtIn("naive")).tally
        XCTAssertEqual(fast.watchdogKills, 0)
        XCTAssertEqual(fast.acknowledgedLost, 0)
        XCTAssertEqual(fast.saves, 1)
    }

    /// Signal commits each change as it happens: a kill right after the edits loses nothing. An
    /// app that saves only at transitions loses the edits a kill in the foreground catches.
    func testEachChangeCommitsSurviveAKillInTheForeground() throws {
        let trace = launchedThen("10000 edit", "11000 edit", "12000 edit", "12100 kill")
        XCTAssertEqual(try runTrace(trace, builtIn("signal")).tally.acknowledgedLost, 0)
        XCTAssertEqual(try runTrace(trace, builtIn("article")).tally.acknowledgedLost, 3)
        XCTAssertEqual(try runTrace(trace, builtIn("naive")).tally.acknowledgedLost, 3)
    }

    /// willTerminate is not delivered to a suspended app: the naive app's save there never runs.
    func testWillTerminateNeverReachesASuspendedApp() throws {
        let trace = launchedThen("10000 edit", "20000 terminate")
        XCTAssertEqual(try runTrace(trace, builtIn("naive")).tally.acknowledgedLost, 0, "running: willTerminate saves")
        let suspended = launchedThen("10000 edit", "20000 foreground")
        // (foreground while active is ignored); now a background visit where the save is skipped:
        var noBackgroundSave = builtIn("naive")
        noBackgroundSave.backgroundSave = .none
        let t = try runTrace(suspended + "\n30000 background\n40000 terminate", noBackgroundSave).tally
        XCTAssertEqual(t.acknowledgedLost, 1, "suspended at 40 s: silent kill, no willTerminate")
    }

    /// The background task runs out: the article's handler force-saves on main. Within the grace it
    /// survives (an expiration, no kill); past it, the app is killed for not ending its task.
    func testBackgroundTaskExpirationAndForceSave() throws {
        var rules = OSRules()
        rules.backgroundTask = .milliseconds(20)
        let trace = editsThenBackground(then: "600000 kill")
        let ok = try runTrace(trace, builtIn("article"), rules: rules).tally
        XCTAssertEqual(ok.backgroundTaskExpirations, 1)
        XCTAssertEqual(ok.expirationKills, 0)
        XCTAssertEqual(ok.acknowledgedLost, 0)
        rules.expirationGrace = .milliseconds(10)
        let killed = try runTrace(trace, builtIn("article"), rules: rules).tally
        XCTAssertEqual(killed.expirationKills, 1)
        XCTAssertEqual(killed.corruptLaunches, 0, "rename: atomic under the kill")
        // The control: the default 30 s budget is never reached by an 80 ms save.
        XCTAssertEqual(try runTrace(trace, builtIn("article")).tally.backgroundTaskExpirations, 0)
    }

    /// Memory pressure in the background kills an app above the limit; purging caches keeps the
    /// article's app under it.
    func testJetsamKillsOnlyAboveTheLimit() throws {
        let trace = launchedThen("300000 inactive", "300200 background", "400000 pressure")
        let naive = try runTrace(trace, builtIn("naive")).tally
        XCTAssertEqual(naive.jetsamKills, 1)
        XCTAssertGreaterThan(naive.backgroundPeakMB, OSRules().backgroundMemoryLimitMB)
        let article = try runTrace(trace, builtIn("article")).tally
        XCTAssertEqual(article.jetsamKills, 0)
        XCTAssertEqual(article.backgroundPeakMB, AppProfile().baseMemoryMB)
    }

    /// A repeated didEnterBackground saves twice without a debounce; the article's Task(id:) saves once.
    func testRepeatedScenePhaseEventsDuplicateSaves() throws {
        let trace = editsThenBackground(then: "60250 background\n70000 kill")
        let naive = try runTrace(trace, builtIn("naive")).tally
        XCTAssertEqual(naive.saves, 2)
        XCTAssertEqual(naive.duplicateSaves, 1)
        let article = try runTrace(trace, builtIn("article")).tally
        XCTAssertEqual(article.saves, 1)
        XCTAssertEqual(article.duplicateSaves, 0)
    }

    /// Deferring non-critical init shortens time to interactive by exactly the deferred items.
    func testDeferredInitShortensColdStartByTheDeferredItems() throws {
        let trace = "0 launch\n500 active\n60000 kill"
        let profile = AppProfile()
        let eager = try runTrace(trace, builtIn("naive")).tally.coldTTI[0]
        let deferred = try runTrace(trace, builtIn("article")).tally.coldTTI[0]
        let draws = try TransitionTrace.parse(trace, name: "t", profile: profile, seed: 1)[0].draws
        let deferrable = draws.initItems.dropFirst(profile.criticalItems).reduce(0, +)
        XCTAssertEqual(eager - deferred, Double(deferrable) / 1e6, accuracy: 1e-6)
    }

    /// A migration longer than the launch watchdog on main is a crash loop; off main (Signal,
    /// behind a loading screen) it finishes and time to interactive includes it.
    func testMigrationOnMainIsACrashLoopAndOffMainIsNot() throws {
        var shape = LifecycleScenario.everyday.shape
        shape.migration = 1
        shape.migrationSeconds = 25...25
        let sessions = SessionGenerator.sessions(5, shape: shape, profile: AppProfile(), seed: 3)
        let article = LifecycleSimulation(policy: builtIn("article")).run(sessions).tally
        XCTAssertEqual(article.watchdogKills, 5)
        XCTAssertTrue(article.coldTTI.isEmpty)
        let signal = LifecycleSimulation(policy: builtIn("signal")).run(sessions).tally
        XCTAssertEqual(signal.watchdogKills, 0)
        XCTAssertEqual(signal.coldTTI.count, 5)
        XCTAssertTrue(signal.coldTTI.allSatisfy { $0 > 25_000 }, "behind the loading screen, every session brings one")
    }
}
