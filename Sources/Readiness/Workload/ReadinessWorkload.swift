import Foundation
import Measurement
import Records
import Simulation
import Timelines
import TraceImport

/// bench-readiness as a `Workload`: every (scenario, globals, seed, variant) of the matrix is one
/// item, simulated in virtual time; in live mode a launch also runs on real threads (beside its
/// simulation), and the live-only scenarios run their probes.
///
/// The variants come from a `VariantRegistry<ReadinessVariant>` (the command passes
/// `Suite.coordinators`). A launch scenario runs a variant's sim form, `reentrant-tasks` its live
/// form; a variant lacking the form a selected scenario needs is refused when `--variant` names
/// it and skipped with a note otherwise. An item of a `user` variant, virtual time or live, runs
/// in a child process (`IsolatingWorkload`).
package struct ReadinessWorkload: IsolatingWorkload, FoldingWorkload, MatrixWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    package typealias Variant = ReadinessVariant
    /// The scenarios `--scenario` chooses from (`matrix.scenarios`).
    package typealias Scenario = ReadinessScenario

    package struct Item: Sendable {
        package var scenario: ReadinessScenario
        package var variant: ReadinessVariant?
        package var globals: GlobalsStrategy?
        package var seed: UInt64
        package var repetition: Int
    }

    package struct Sample: Sendable, Codable {
        package var sim: [Observation]
        package var live: [Observation]?
        package var notes: [String] = []
        /// The simulated launch's timeline; empty unless the workload records timelines.
        package var simTrace: [TraceEvent] = []
        /// The live run's timeline (the launch's blocks, or the probes' children); empty unless recorded.
        package var liveTrace: [TraceEvent] = []
    }

    package static let name = "readiness"
    package let configuration: ReadinessConfiguration
    package let environment: Environment
    /// The scenarios, variants, seeds and items of the run.
    package let matrix: Matrix
    /// Variants left out of a scenario for lacking its form (default selection only).
    package let skipped: [String]
    package let globals: [GlobalsStrategy]
    /// The recorded launch `--trace` gave, read once; every launch item's plan is built from it.
    package let recordedLaunch: IntervalEvents?
    package var factorNames: [String] { ["globals"] }

    package init(configuration: ReadinessConfiguration, environment: Environment = Environment()) throws {
        self.configuration = configuration
        self.environment = environment
        recordedLaunch = try Self.readLaunch(configuration)
        let selection = environment.selection
        let live = configuration.mode == .live
        let defaults = ReadinessScenario.allCases.filter { live ? $0 != .nse && $0 != .shareExtension : !$0.isLiveOnly }
        var matrix = try Matrix(
            environment,
            scenarios: ReadinessScenario.allCases,
            requested: selection.scenarios.isEmpty ? defaults.map(\.rawValue) : selection.scenarios,
            name: \.rawValue,
            seeds: live ? 1 : 5
        )
        globals = try MatrixSelection.resolve(configuration.globals, flag: "--globals", from: GlobalsStrategy.allCases, name: \.rawValue)
        let scenarios = matrix.scenarios
        if !live, let s = scenarios.first(where: \.isLiveOnly) {
            throw BenchFailure.usage("--scenario \(s.rawValue) runs only with --mode live (it needs real threads and child processes)")
        }
        if live, scenarios.contains(.reentrantTasks), configuration.childCommand.isEmpty {
            throw BenchFailure.usage("--scenario reentrant-tasks needs a child command line to run its probes in")
        }
        var skipped: [String] = []
        var runnable: [ReadinessScenario: [ReadinessVariant]] = [:]
        for scenario in scenarios where scenario != .concurrentFirstUse {
            runnable[scenario] = try matrix.variants.filter { v in
                let needsLive = scenario == .reentrantTasks
                if needsLive ? v.hasLiveForm : v.hasSimForm { return true }
                let lacking =
                    needsLive
                    ? "no live form (a ReadinessAPI), which --scenario reentrant-tasks runs"
                    : "no sim form (a ReadinessPolicy), which --scenario \(scenario.rawValue) runs\(live ? " on a real main thread" : "")"
                guard selection.variants.isEmpty else {
                    throw BenchFailure.usage("variant '\(v.name)' has \(lacking) in --mode \(configuration.mode.rawValue)")
                }
                skipped.append("\(v.name): skipped in \(scenario.rawValue) (\(lacking))")
                return false
            }
        }
        self.skipped = skipped
        var items: [Item] = []
        for scenario in scenarios {
            let variants = runnable[scenario] ?? []
            for (repetition, seed) in matrix.seeds.enumerated() {
                switch scenario {
                case .reentrantTasks:
                    for v in variants {
                        items.append(Item(scenario: scenario, variant: v, globals: nil, seed: seed, repetition: repetition))
                    }
                case .concurrentFirstUse:
                    for g in globals {
                        items.append(Item(scenario: scenario, variant: nil, globals: g, seed: seed, repetition: repetition))
                    }
                default:
                    for g in globals {
                        for v in variants {
                            items.append(Item(scenario: scenario, variant: v, globals: g, seed: seed, repetition: repetition))
                        }
                    }
                }
            }
        }
        guard !items.isEmpty else { throw BenchFailure.usage("the selection is empty") }
        matrix.items = items
        self.matrix = matrix
    }

    /// The launch profile of a scenario, with the command line's overrides.
    package func profile(_ context: ProcessContext) -> LaunchProfile {
        var p = LaunchProfile(context: context)
        if selection.quick { p = p.quick() }
        if let hz = configuration.displayHz { p.displayHz = hz }
        if let rate = configuration.inputRate { p.inputRate = rate }
        return p
    }

    /// The variant column of an item (`-` where the scenario does not depend on it).
    static func variantName(_ item: Item) -> String { item.variant?.name ?? "-" }
    static func globalsName(_ item: Item) -> String { item.globals?.rawValue ?? "-" }

    package func label(_ item: Item) -> String {
        "\(item.scenario.rawValue) \(Self.variantName(item)) \(Self.globalsName(item)) seed \(item.seed)\(configuration.mode == .live ? " live" : "")"
    }

    package func timing(_ item: Item) -> ItemTiming {
        configuration.mode == .live ? .real : .virtual
    }

    /// A user's coordinator runs in a child process, in virtual time (its sim policy) as in live
    /// (real threads, real child processes): code the suite does not control may trap or hang.
    package func runsInChildProcess(_ item: Item) -> Bool { item.variant?.info.origin == .user }

    package func run(_ item: Item) throws -> Sample {
        switch item.scenario {
        case .reentrantTasks:
            return try runProbes(item)
        case .concurrentFirstUse:
            let r = ConcurrentFirstUse.run(
                strategy: item.globals!,
                services: LaunchProfile(context: .mainApp).services,
                threads: configuration.racingThreads,
                seed: item.seed
            )
            return Sample(
                sim: [],
                live: [
                    Observation("duplicate_constructions", Double(r.duplicates), "count"),
                    Observation("constructions", Double(r.constructions), "count"),
                ]
            )
        case .mainApp, .nse, .shareExtension:
            let plan = launchPlan(item)
            let sim = try SimMainExecutor.run(
                plan: plan,
                globals: item.globals!,
                variant: item.variant!,
                parameters: configuration.frameAware,
                recordTimeline: recordTimeline
            )
            var sample = Sample(sim: sim.observations(plan: plan), live: nil)
            if recordTimeline { sample.simTrace = sim.timeline(plan: plan) }
            if configuration.mode == .live {
                let outcome = LiveLaunchRun.run(
                    plan: plan,
                    globals: item.globals!,
                    variant: item.variant!,
                    parameters: configuration.frameAware
                )
                if let violation = outcome.violation { throw violation }
                sample.live = outcome.recorder.observations(plan: plan)
                if recordTimeline { sample.liveTrace = outcome.recorder.timeline(plan: plan) }
                if !outcome.drained { sample.notes.append("\(label(item)): did not drain within the live time limit") }
            }
            return sample
        }
    }

    private func runProbes(_ item: Item) throws -> Sample {
        let harness = ChildProbeHarness(command: configuration.childCommand, watchdog: configuration.watchdog)
        var traps = 0, deadlocks = 0, completed = 0, failures = 0, outOfMemory = 0
        var notes: [String] = []
        // The timeline: each child as a slice on its probe's track, a trap or deadlock as an instant
        // at its end (real time since the first child started; read only when recording).
        let clock = SystemMonotonicClock()
        let origin = recordTimeline ? clock.now() : .zero
        var trace: [TraceEvent] = []
        for probe in ReadinessProbe.allCases {
            for _ in 0..<configuration.attempts {
                let start = recordTimeline ? clock.now() - origin : .zero
                let (outcome, stderr, _) = try harness.run([probe.rawValue, item.variant!.name])
                // A trap or a hang is the scenario's finding; a child that ran to the end having
                // run a task twice, never or off its thread broke the contract: the item fails.
                if case .failed = outcome, let violation = ReadinessProbe.violation(reportedOn: stderr) { throw violation }
                if recordTimeline {
                    let end = clock.now() - origin
                    trace.append(.slice("child", on: probe.rawValue, start: start.nanoseconds, duration: (end - start).nanoseconds))
                    switch outcome {
                    case .trapped(let signal):
                        trace.append(.instant("trap", on: probe.rawValue, at: end.nanoseconds, value: Double(signal)))
                    case .deadlocked: trace.append(.instant("deadlock", on: probe.rawValue, at: end.nanoseconds))
                    case .failed(let code): trace.append(.instant("failed", on: probe.rawValue, at: end.nanoseconds, value: Double(code)))
                    case .outOfMemory: trace.append(.instant("out-of-memory", on: probe.rawValue, at: end.nanoseconds))
                    case .completed: break
                    }
                }
                switch outcome {
                case .completed: completed += 1
                case .trapped: traps += 1
                case .deadlocked: deadlocks += 1
                case .failed(let code):
                    failures += 1
                    notes.append("\(label(item)) \(probe.rawValue): child exited \(code): \(stderr.prefix(200))")
                case .outOfMemory:
                    outOfMemory += 1
                    notes.append("\(label(item)) \(probe.rawValue): child ran out of memory: \(stderr.suffix(200))")
                }
            }
        }
        return Sample(
            sim: [],
            live: [
                Observation("reentry_traps", Double(traps), "count"),
                Observation("deadlocks", Double(deadlocks), "count"),
                Observation("probes_completed", Double(completed), "count"),
                Observation("probes_failed", Double(failures), "count"),
                Observation("probes_out_of_memory", Double(outOfMemory), "count"),
            ],
            notes: notes,
            liveTrace: trace
        )
    }

    package func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        LabelledObservations.simAndLive(
            scenario: item.scenario.rawValue,
            variant: Self.variantName(item),
            seed: item.seed,
            repetition: item.repetition,
            factors: ["globals": Self.globalsName(item)],
            sim: sample.sim.isEmpty ? nil : sample.sim,
            live: sample.live
        )
    }
}
