import Foundation
import Measurement
import Processes
import Records
import Synchronization
import Timelines

/// The one generic driver behind every `bench-*`: `--list`, the matrix, shards, `--jobs`,
/// progress, interruption, the output files and the summary table.
///
/// An executable parses its own options, then calls `run` with its variants' registry and a
/// closure that builds its workload from the `WorkloadEnvironment` the driver makes of the command
/// line and that registry; everything after that is the same for every workload.
package enum WorkloadDriver {
    /// How a workload's items are isolated in child processes (nil: never).
    struct Isolation<W: Workload>: Sendable {
        var isolates: @Sendable (W, W.Item) -> Bool
        var runInChild: @Sendable (Int, String) throws -> W.Sample
        var writeSample: @Sendable (W.Sample, String) throws -> Void

        /// The isolation of `W` when it is an `IsolatingWorkload`, nil otherwise. Asked of the type
        /// when the run starts rather than chosen by overload, so that a caller generic over any
        /// `Workload` isolates the same items as one that names the type.
        static func of(timeout: Double) -> Self? {
            guard let isolating = W.self as? any IsolatingWorkload.Type else { return nil }
            return Isolation.of(isolating, timeout: timeout) as? Self
        }

        private static func of<I: IsolatingWorkload>(_: I.Type, timeout: Double) -> Any {
            let runner = ChildItemRunner(timeout: timeout)
            return Isolation<I>(
                isolates: { w, item in w.runsInChildProcess(item) },
                runInChild: { index, label in try runner.run(index: index, label: label, as: I.Sample.self) },
                writeSample: { sample, path in try ChildItemRunner.write(sample, to: path) }
            )
        }
    }

    /// What one item came back with: its sample, or the failure of an isolated item (which does
    /// not stop the run, unlike any other error).
    enum Outcome<Sample: Sendable>: Sendable {
        case sample(Sample)
        case isolatedFailure(IsolatedItemFailure)
        /// An isolated item whose child was killed by an interrupt: it did not finish.
        case stopped
    }

    /// Set to 1, items that would run in a child process run in-process: to debug a variant in a
    /// debugger, and for the tests' controls (a trap then takes the whole run down).
    package static let noIsolationVariable = "PATTERNBENCH_NO_ISOLATION"

    /// Runs the workload `make` builds. When `W` is an `IsolatingWorkload`, an item it names runs
    /// in a child process: one that traps, crashes or hangs is reported as failed and the rest is
    /// written.
    ///
    /// - Parameters:
    ///   - debugWarning: what measures real time, for the loud banner a debug build prints once the
    ///     matrix is valid and before anything is measured (nil: nothing timed).
    ///   - catalogue: what `--list` prints, when it differs from `W.catalogue` (a suite's registry).
    ///   - variants: the registry `--variant` chooses from (by default the suite's own variants).
    package static func run<W: Workload, Variant: BuiltInVariants>(
        _ type: W.Type,
        common: CommonOptions,
        debugWarning: String? = nil,
        catalogue: WorkloadCatalogue? = nil,
        variants: VariantRegistry<Variant> = VariantRegistry(builtIn: Variant.builtIn),
        make: (WorkloadEnvironment<Variant>) throws -> W
    ) throws {
        // What W's type asks for; PATTERNBENCH_NO_ISOLATION turns it off in the parent only.
        let typeIsolation = Isolation<W>.of(timeout: common.itemTimeout)
        let environment = WorkloadEnvironment(
            selection: common.selection,
            registry: variants,
            recordTimeline: common.events != nil || common.perfetto != nil
        )
        if let index = common.isolatedItem, let path = common.isolatedResult {
            try runIsolatedChild(index: index, resultPath: path, common: common, isolation: typeIsolation, make: { try make(environment) })
            return
        }
        let isolation = ProcessInfo.processInfo.environment[noIsolationVariable] == "1" ? nil : typeIsolation
        if common.list {
            // A suite with registered variants lists its own catalogue (the user's variants too).
            print((catalogue ?? W.catalogue).render(verbose: common.verbose), terminator: "")
            return
        }
        try checkTimelineFlags(W.self, common)
        let timeline = try common.events.map { try TimelineFile(path: $0, outputFolder: common.output) }
        let perfettoFile = try common.perfetto.map { try TimelineFile(path: $0, flag: "--perfetto", outputFolder: common.output) }
        let workload = try make(environment)
        // Once per run, in the parent: a user's variant that is another variant of this run under
        // a second name.
        if !common.quiet {
            for note in variants.twinNotes(running: (try? environment.selectedVariants()) ?? []) {
                FileHandle.standardError.write(Data("bench-\(W.name): note: \(note)\n".utf8))
            }
        }
        let jobs = common.effectiveJobs
        if let debugWarning { BenchMain.warnIfDebug(debugWarning, quiet: common.quiet) }
        let plan = try ItemPlan(workload: workload, common: common, isolation: isolation)
        // The folder after the flags: a run refused for its flags leaves no empty run folder behind
        // (`results/runs/<id>` with only its lock) and never meets another run's lock first. Making
        // the workload measures nothing, so a bad --output still fails before any measuring.
        let output = try RunOutput(workload: W.name, options: common)

        Interruption.install()
        var sink = try ItemSink(output: output, workload: workload, common: common, timeline: timeline, perfettoFile: perfettoFile)
        let failures = try runItems(plan, into: &sink, jobs: jobs, common: common)
        let ending = RunEnding(interrupted: Interruption.pending, planned: plan.count, finished: sink.finishedCount, failures: failures)
        try finish(workload, sink: &sink, ending: ending, common: common, jobs: jobs, timeline: timeline, perfettoFile: perfettoFile)
    }

    /// `--events` and `--perfetto` are refused by a workload that writes no timeline or trace.
    static func checkTimelineFlags<W: Workload>(_: W.Type, _ common: CommonOptions) throws {
        if common.events != nil, !W.hasTimeline {
            throw BenchFailure.usage("--events: bench-\(W.name) writes no timeline")
        }
        if common.perfetto != nil, !W.hasTrace {
            throw BenchFailure.usage("--perfetto: bench-\(W.name) records no timelines")
        }
    }

    /// `--check-determinism`: runs a virtual-time item again in this process (state a variant
    /// keeps across runs shows) and, when the workload can isolate items, once more in a child
    /// process (what depends on the process shows: hash seeds, addresses). A difference fails the
    /// item (an `IsolatedItemFailure` naming the variant, the metric and both values), not the run.
    /// An item that runs in a child process anyway (a user's variant) runs in two: each runs it
    /// twice and compares (`runIsolatedChild`), and the two children's results are compared.
    static func checkedTwice<W: Workload>(_ workload: W, _ item: W.Item, index: Int, isolation: Isolation<W>?) throws -> W.Sample {
        if let isolation, isolation.isolates(workload, item) {
            let first = try isolation.runInChild(index, workload.label(item))
            let second = try isolation.runInChild(index, workload.label(item))
            try compare(
                workload,
                item,
                workload.observations(for: item, sample: first),
                workload.observations(for: item, sample: second),
                where: "in a second child process"
            )
            return first
        }
        let first = try workload.run(item)
        let a = workload.observations(for: item, sample: first)
        try compare(workload, item, a, workload.observations(for: item, sample: try workload.run(item)), where: "in this process")
        if let isolation {
            let other = try isolation.runInChild(index, workload.label(item))
            try compare(workload, item, a, workload.observations(for: item, sample: other), where: "in a child process")
        }
        return first
    }

    static func compare<W: Workload>(
        _ workload: W,
        _ item: W.Item,
        _ a: [LabelledObservations],
        _ b: [LabelledObservations],
        where again: String
    ) throws {
        guard a != b else { return }
        throw IsolatedItemFailure(label: workload.label(item), reason: determinismFailure(a, b, again: again))
    }

    /// Why two runs of one seed differ, short enough for one line: the first differing value.
    package static func determinismFailure(_ a: [LabelledObservations], _ b: [LabelledObservations], again: String) -> String {
        let left = a.flatMap { g in g.observations.map { (g.variant, $0) } }
        let right = b.flatMap { g in g.observations.map { (g.variant, $0) } }
        let what =
            zip(left, right).first { $0.0 != $0.1 }.map {
                "\($0.0.0) \($0.0.1.metric) was \(CSVWriter.format($0.0.1.value)), then \(CSVWriter.format($0.1.1.value))"
            } ?? "\(left.count) values, then \(right.count)"
        return "not deterministic (--check-determinism): \(what) when run again \(again)"
    }

    /// The child side of an isolated item: build the same workload (as the parent built it), run
    /// the one item, write its sample for the parent. Writes no result files and takes no lock on
    /// the output folder.
    static func runIsolatedChild<W: Workload>(
        index: Int,
        resultPath: String,
        common: CommonOptions,
        isolation: Isolation<W>?,
        make: () throws -> W
    ) throws {
        guard let isolation else { throw BenchFailure.usage("--isolated-item: bench-\(W.name) runs no item in a child process") }
        ParentWatch.armInChild()
        let workload = try make()
        let all = workload.items
        guard all.indices.contains(index) else {
            throw BenchFailure.usage("--isolated-item: \(index) is not an item of this matrix (0..<\(all.count))")
        }
        let item = all[index]
        let sample: W.Sample
        do {
            sample =
                common.checkDeterminism && workload.timing(item) == .virtual
                ? try checkedTwice(workload, item, index: index, isolation: nil) : try workload.run(item)
        } catch let violation as ContractViolation {
            // Sent back whole, so the parent fails the item with the same line as in-process.
            try ChildItemRunner.write(violation, to: ChildItemRunner.violationPath(ofResult: resultPath))
            throw BenchFailure.runtime(violation.description)
        }
        try isolation.writeSample(sample, resultPath)
    }
}

/// A flag the item workers read and the driver sets (a results file that could not be written
/// stops the run). Its state is under `value`'s lock.
final class StopFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
