import Dispatch
import Foundation
import Measurement
import Records
import Synchronization
import XCTest

@testable import Readiness

/// A user's sim form, declared as a user's package would: Signal's sync kinds, but every polite
/// block gets its own main turn right at ready (no 25 ms chain), UI blocks at UI-ready.
private final class EagerPolite: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor.
    private let session: LaunchSession
    private var appReady = false
    private var uiReady = false
    private var sync: [ReadinessBlock] = []
    private var polite: [ReadinessBlock] = []
    private var ui: [ReadinessBlock] = []

    init(session: LaunchSession) { self.session = session }

    func register(_ block: ReadinessBlock) {
        switch block.kind {
        case .will, .did: appReady ? session.run(block, ownTurn: false) : sync.append(block)
        case .ui: uiReady ? session.run(block, ownTurn: false) : ui.append(block)
        case .polite: appReady ? turn(block) : polite.append(block)
        }
    }

    func registerOffMain(_ block: ReadinessBlock) { session.executor.async { [self] in register(block) } }

    func setAppReady() {
        appReady = true
        session.markAppReady()
        for b in sync.filter({ $0.kind == .will }) + sync.filter({ $0.kind == .did }) { session.run(b, ownTurn: false) }
        for b in polite { turn(b) }
        (sync, polite) = ([], [])
    }

    func setUIReady() {
        uiReady = true
        for b in ui { session.run(b, ownTurn: false) }
        ui = []
    }

    private func turn(_ block: ReadinessBlock) { session.executor.async { [session] in session.run(block, ownTurn: true) } }
}

/// A user's live form: flag first under a lock, tasks run after it with no lock held.
private final class UserFlagReadiness: ReadinessAPI, @unchecked Sendable {
    // `state` is protected by its Mutex.
    private let state = Mutex<(ready: Bool, tasks: [@Sendable () -> Void])>((false, []))

    var isAppReady: Bool { state.withLock { $0.ready } }

    func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.ready { return true }
            s.tasks.append(task)
            return false
        }
        if now { task() }
    }

    func setAppIsReady() {
        let tasks = state.withLock { s -> [@Sendable () -> Void] in
            s.ready = true
            defer { s.tasks = [] }
            return s.tasks
        }
        for t in tasks { t() }
    }
}

final class UserCoordinatorTests: XCTestCase {
    private func registry() throws -> VariantRegistry<ReadinessVariant> {
        var r = VariantRegistry(builtIn: ReadinessVariant.builtIn)
        try r.register(ReadinessVariant(name: "eager-polite", origin: .user, summary: "polite at once", sim: { EagerPolite(session: $0) }))
        try r.register(ReadinessVariant(name: "user-flag", origin: .user, summary: "flag first", live: { UserFlagReadiness() }))
        return r
    }

    private func workload(
        _ variants: [String],
        mode: ReadinessConfiguration.Mode = .sim,
        scenarios: [String] = []
    ) throws
        -> ReadinessWorkload
    {
        var c = ReadinessConfiguration()
        c.mode = mode
        c.globals = ["lazy-registry"]
        c.childCommand = ["/bin/false"]
        return try ReadinessWorkload(
            configuration: c,
            environment: WorkloadEnvironment(
                selection: MatrixSelection(scenarios: scenarios, variants: variants, seedCount: 2, quick: true),
                registry: registry()
            )
        )
    }

    /// Sim: the user's policy runs every scenario, drains every block, and its records carry
    /// origin `user`; its sim items run in a child process too (a trap or a hang costs that item).
    func testUserPolicyRunsInSimulationWithOriginUser() throws {
        let w = try workload(["eager-polite", "signal"])
        XCTAssertEqual(w.items.count, 3 * 2 * 2)
        for item in w.items where item.variant?.name == "eager-polite" {
            XCTAssertTrue(w.runsInChildProcess(item))
            let sample = try w.run(item)
            XCTAssertNotNil(sample.sim.first { $0.metric == "t_ui_ready_ms" })
            XCTAssertEqual(sample.sim.first { $0.metric == "overtakes" }?.value, 0, w.label(item))
            for group in w.observations(for: item, sample: sample) { XCTAssertEqual(w.variantOrigins[group.variant], .user) }
        }
        XCTAssertEqual(w.variantOrigins["signal"], .signal)
        XCTAssertEqual(w.variantOrigins["intent-orchestrator"], .article)
        XCTAssertEqual(w.variantOrigins["frame-aware"], .ours)
    }

    /// What `--jobs 2` does: items run from two threads at once, collected by index.
    func testUserPolicyIdenticalForOneOrTwoJobs() throws {
        let w = try workload(["eager-polite", "frame-aware"])
        let sequential = try w.items.map { try w.run($0).sim }
        let slots = Mutex<[[Observation]?]>(Array(repeating: nil, count: w.items.count))
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for i in stride(from: worker, to: w.items.count, by: 2) {
                let sim = try? w.run(w.items[i]).sim
                slots.withLock { $0[i] = sim }
            }
        }
        XCTAssertEqual(slots.withLock { $0 }, sequential)
    }

    /// Live: the user's policy runs a launch on real threads beside its simulation (in a child
    /// process under the driver); the sample survives the trip as JSON.
    func testUserPolicyRunsALiveLaunch() throws {
        var c = ReadinessConfiguration()
        c.mode = .live
        c.globals = ["eager"]
        c.inputRate = 4
        let w = try ReadinessWorkload(
            configuration: c,
            environment: WorkloadEnvironment(
                selection: MatrixSelection(scenarios: ["main-app"], variants: ["eager-polite"], seedCount: 1, quick: true),
                registry: registry()
            )
        )
        let item = try XCTUnwrap(w.items.first)
        XCTAssertTrue(w.runsInChildProcess(item))
        let sample = try w.run(item)
        let decoded = try JSONDecoder().decode(ReadinessWorkload.Sample.self, from: JSONEncoder().encode(sample))
        XCTAssertEqual(decoded.sim, sample.sim)
        XCTAssertNotNil(decoded.live?.first { $0.metric == "t_ui_ready_ms" })
    }

    /// Live form: the probe a child process runs finds the user's variant by name and completes
    /// (run in process here: this coordinator neither traps nor hangs).
    func testUserLiveFormCompletesTheProbes() throws {
        let r = try registry()
        XCTAssertEqual(ReadinessProbe.runChild(["reentry", "user-flag"], variants: r), 0)
        XCTAssertEqual(ReadinessProbe.runChild(["cross-thread-wait", "user-flag"], variants: r), 0)
        XCTAssertEqual(ReadinessProbe.runChild(["reentry", "signal"], variants: r), 0)
        XCTAssertEqual(ReadinessProbe.runChild(["reentry", "eager-polite"], variants: r), 64, "no live form")
        let w = try workload(["user-flag", "article-lightweight"], mode: .live, scenarios: ["reentrant-tasks"])
        XCTAssertEqual(w.items.map { $0.variant?.name }, ["user-flag", "article-lightweight", "user-flag", "article-lightweight"])
        XCTAssertEqual(w.items.map(w.runsInChildProcess), [true, false, true, false])
    }

    /// A form the variant lacks: refused in one line when --variant names it, skipped with a note
    /// when the run takes the defaults.
    func testMissingFormIsRefusedWhenNamedAndSkippedOtherwise() throws {
        for (variants, mode, scenarios, expected) in [
            (["user-flag"], ReadinessConfiguration.Mode.sim, [String](), "variant 'user-flag' has no sim form"),
            (["eager-polite"], .live, ["reentrant-tasks"], "variant 'eager-polite' has no live form"),
            (["user-flag"], .live, ["main-app"], "variant 'user-flag' has no sim form"),
        ] {
            XCTAssertThrowsError(try workload(variants, mode: mode, scenarios: scenarios)) { error in
                let failure = error as? BenchFailure
                XCTAssertEqual(failure?.exitCode, 64)
                XCTAssertTrue(failure?.message.contains(expected) == true, "\(error)")
                XCTAssertTrue(failure?.message.contains("--mode \(mode.rawValue)") == true, "\(error)")
                XCTAssertFalse(failure?.message.contains("\n") == true)
            }
        }
        let sim = try workload([])
        XCTAssertFalse(sim.items.contains { $0.variant?.name == "user-flag" })
        XCTAssertTrue(sim.items.contains { $0.variant?.name == "eager-polite" })
        XCTAssertEqual(sim.skipped.count, 3)
        XCTAssertTrue(sim.skipped[0].hasPrefix("user-flag: skipped in main-app (no sim form"), sim.skipped[0])
        let probes = try workload([], mode: .live, scenarios: ["reentrant-tasks"])
        XCTAssertFalse(probes.items.contains { $0.variant?.name == "eager-polite" })
        XCTAssertTrue(probes.items.contains { $0.variant?.name == "user-flag" })
    }

    func testDuplicateAndReservedNamesAreOneLineUsageErrors() throws {
        var r = try registry()
        for (name, expected) in [("signal", "already registered"), ("user-flag", "already registered"), ("none", "reserved")] {
            XCTAssertThrowsError(try r.register(ReadinessVariant(name: name, origin: .user, summary: "x", live: { UserFlagReadiness() }))) {
                let failure = $0 as? BenchFailure
                XCTAssertEqual(failure?.exitCode, 64)
                XCTAssertTrue(failure?.message.contains(expected) == true, "\($0)")
                XCTAssertFalse(failure?.message.contains("\n") == true)
            }
        }
    }

    /// The suite's own coordinators, registered as values, replay what the closed enum produced
    /// (share-extension, lazy-registry, seed 1: values of the default run before the change).
    func testBuiltInVariantsReplayTheirResults() throws {
        var c = ReadinessConfiguration()
        c.globals = ["lazy-registry"]
        let w = try ReadinessWorkload(
            configuration: c,
            environment: WorkloadEnvironment(selection: MatrixSelection(scenarios: ["share-extension"], seedCount: 1))
        )
        let expected: [String: [Double]] = [
            // t_ui_ready_ms, polite_drain_ms, input_latency_p99_ms, missed_frames, wasted_slots
            "signal": [116.666662, 844.027735, 13.169031, 14, 12],
            "signal-2018": [216.666658, 111.887495, 13.169031, 9, 0],
            "signal-2021-lifo": [116.666662, 843.572586, 13.169031, 12, 12],
            "article-lightweight": [216.666658, 111.887495, 4.721544, 5, 0],
            "intent-orchestrator": [116.666662, 135.989091, 13.169031, 14, 12],
            "frame-aware": [116.666662, 158.667209, 4.721544, 9, 0],
        ]
        XCTAssertEqual(w.items.compactMap { $0.variant?.name }, ReadinessVariant.builtIn.map(\.name))
        for item in w.items {
            let sim = try w.run(item).sim
            let values = ["t_ui_ready_ms", "polite_drain_ms", "input_latency_p99_ms", "missed_frames", "wasted_slots"].map { m in
                sim.first { $0.metric == m }?.value
            }
            XCTAssertEqual(values, try XCTUnwrap(expected[item.variant!.name]), item.variant!.name)
        }
    }
}
