import Foundation
import Measurement
import Simulation

/// bench-atomics as a `Workload`: one item per contention cell (operation × threads × work), which
/// measures every strategy that supports it over all repetitions, repetition-major so that a noisy
/// host's slow drift spreads evenly over the strategies being compared.
///
/// Every cell measures real time, so every cell runs alone whatever `--jobs` says (two
/// "uncontended" cells side by side contended on Signal's one global lock).
///
/// The variants come from a `VariantRegistry<LockVariant>` (the command passes `Suite.locks`). A
/// `user` variant gets an item of its own in each cell, right after the suite's item for the cell,
/// and that item runs in a child process (`IsolatingWorkload`): a user's lock that traps or hangs
/// fails its item, and the rest of the matrix is measured and written.
package struct AtomicsWorkload: IsolatingWorkload, EnvironmentWorkload, ItemKeepingWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    package typealias Variant = LockVariant

    package struct Item: Sendable {
        package var cell: ContentionCell
        package var variants: [LockVariant]
    }

    /// One measured repetition of one strategy in a cell.
    package struct Run: Sendable, Codable {
        package var variant: LockVariant
        package var repetition: Int
        package var seed: UInt64
        package var sample: ContentionSample
    }

    package struct Sample: Sendable, Codable {
        package var runs: [Run]
    }

    package static let name = "atomics"
    package let configuration: AtomicsConfiguration
    package let plan: ContentionPlan
    package let seeds: [UInt64]
    package let duration: Double
    package let warmup: Double
    package let environment: Environment
    package let allocator: AllocatorSwitch.Active
    package let calibration: SpinCalibration
    package let settings: ContentionSettings
    package let probeBefore: CoSchedulingResult?
    package let clock: SystemMonotonicClock
    package let started: UInt64
    package let items: [Item]
    package var factorNames: [String] { ContentionCell.factorNames }

    /// Resolves the matrix, switches the allocator, calibrates the spin loop and runs the
    /// co-scheduling probe: everything a cell's measurement depends on, once, before the first cell.
    package init(configuration: AtomicsConfiguration, environment: Environment = Environment()) throws {
        self.configuration = configuration
        self.environment = environment
        let selection = environment.selection
        LockVariant.publish(environment.registry.variants)
        let plan = try Self.resolve(configuration, environment)
        self.plan = plan
        duration = try Self.seconds(configuration.duration ?? (selection.quick ? 0.05 : 0.08), flag: "--duration", allowZero: false)
        warmup = try Self.seconds(configuration.warmup ?? (selection.quick ? 0.01 : 0.02), flag: "--warmup", allowZero: true)
        _ = try Self.seconds(configuration.probeDuration, flag: "--probe-duration", allowZero: true)
        seeds = selection.seeds(default: 3)
        items = Self.items(plan)
        allocator = try AllocatorSwitch.activateForRun(configuration.allocator)
        clock = SystemMonotonicClock()
        let cpuCount = ProcessInfo.processInfo.activeProcessorCount
        // An isolated item's child measures with its parent's calibration, so that a user
        // variant's critical sections are as long as the suite's in the same cell.
        let inherited = ProcessInfo.processInfo.environment[Self.calibrationVariable].flatMap(Double.init)
        calibration = inherited.map(SpinCalibration.init) ?? SpinCalibration.measure(clock: clock)
        if inherited == nil { setenv(Self.calibrationVariable, String(calibration.nanosecondsPerIteration), 1) }
        var settings = ContentionSettings(duration: duration, warmup: warmup, pinning: configuration.pin, cpuCount: cpuCount)
        settings.sampling = environment.recordTimeline ? LockSampling() : nil  // Timeline/: sampled lock holds and waits
        self.settings = settings
        probeBefore =
            configuration.probeDuration > 0 && inherited == nil
            ? try? CoSchedulingProbe(clock: clock, pinning: configuration.pin, cpuCount: cpuCount).run(seconds: configuration.probeDuration)
            : nil
        started = clock.nanoseconds()
    }

    /// The items of `plan`: per cell, one for the suite's variants, then one per `user` variant.
    static func items(_ plan: ContentionPlan) -> [Item] {
        plan.cells.flatMap { cell -> [Item] in
            let variants = plan.variants(for: cell)
            let suite = variants.filter { $0.info.origin != .user }
            return (suite.isEmpty ? [] : [Item(cell: cell, variants: suite)])
                + variants.filter { $0.info.origin == .user }.map { Item(cell: cell, variants: [$0]) }
        }
    }

    /// The spin calibration a parent passes to the children of its isolated items.
    static let calibrationVariable = "PATTERNBENCH_ATOMICS_SPIN_NS"

    /// The operation and threads, the work where there is some (two cells may differ only by
    /// it, and a failed item must be told from its neighbour), and a user's variant.
    package func label(_ item: Item) -> String {
        let cell = item.cell
        let work = (cell.csWork.isZero ? "" : " cs=\(cell.csWork)") + (cell.gapWork.isZero ? "" : " gap=\(cell.gapWork)")
        let user = runsInChildProcess(item) ? " " + item.variants.map(\.name).joined(separator: ",") : ""
        return "\(cell.operation.name) t=\(cell.threads)\(work)\(user)"
    }

    /// A user's lock or wrapper runs in a child process: real threads on code the suite does not control.
    package func runsInChildProcess(_ item: Item) -> Bool { item.variants.contains { $0.info.origin == .user } }

    /// Every cell is timed, single-thread ones included: two "uncontended" cells side by side
    /// share the cores, the caches and, for `signal-global-lock`, the one process-wide lock.
    package func timing(_ item: Item) -> ItemTiming { .real }

    package func run(_ item: Item) throws -> Sample {
        // The lock contract, before anything is timed: a lock that lets two bodies in fails its item.
        for variant in item.variants where variant.isSynchronized {
            if let overlap = variant.targets.exclusion?() {
                throw LockContract.mutualExclusion.violated(at: "\(variant.name): \(overlap)")
            }
        }
        let runner = ContentionRunner(clock: clock, calibration: calibration, settings: settings, jemalloc: allocator.jemalloc)
        do {
            var runs: [Run] = []
            for (repetition, seed) in seeds.enumerated() {
                // One probe per round: its repetitions follow one another within a second.
                let probe = runner.probe()
                for variant in item.variants {
                    var sample = try runner.measure(item.cell, variant: variant, seed: seed, warmup: repetition == 0 ? warmup : 0)
                    sample.coScheduledFraction = probe?.fraction
                    runs.append(Run(variant: variant, repetition: repetition, seed: seed, sample: sample))
                }
            }
            return Sample(runs: runs)
        } catch {
            throw BenchFailure.runtime(error.description)
        }
    }

    package func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        sample.runs.map { r in
            LabelledObservations(
                scenario: item.cell.operation.name,
                variant: r.variant.name,
                mode: "live",
                seed: r.seed,
                repetition: r.repetition,
                factors: item.cell.factors,
                observations: r.sample.observations()
            )
        }
    }
}
