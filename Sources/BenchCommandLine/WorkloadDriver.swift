import Foundation
import Measurement

/// What a workload is built with: the user's matrix selection and the run's switches.
package struct WorkloadEnvironment: Sendable {
    package var selection: MatrixSelection
    /// `--events` was given: items should keep their timeline.
    package var recordTimeline: Bool
    package var quiet: Bool
    package var jobs: Int
}

/// The one generic driver behind every `bench-*`: `--list`, the matrix, shards, `--jobs`,
/// progress, interruption, the output files and the summary table.
///
/// An executable parses its own options, then calls `run` with a closure that builds its workload;
/// everything after that is the same for every workload.
package enum WorkloadDriver {
    /// - Parameter debugWarning: what measures real time, for the loud banner a debug build prints
    ///   once the matrix is valid and before anything is measured (nil: nothing timed).
    package static func run<W: Workload>(
        _ type: W.Type,
        common: CommonOptions,
        debugWarning: String? = nil,
        make: (WorkloadEnvironment) throws -> W
    ) throws {
        if common.list {
            print(W.catalogue.render(), terminator: "")
            return
        }
        if common.events != nil, !W.hasTimeline {
            throw BenchFailure.usage("--events: bench-\(W.name) writes no timeline")
        }
        let timeline = try common.events.map { try TimelineFile(path: $0) }
        var output = try RunOutput(workload: W.name, options: common)
        let environment = WorkloadEnvironment(
            selection: common.selection,
            recordTimeline: timeline != nil,
            quiet: common.quiet,
            jobs: common.effectiveJobs
        )
        let workload = try make(environment)
        if let debugWarning { BenchMain.warnIfDebug(debugWarning, quiet: common.quiet) }
        let all = workload.items
        let indices = common.shard.map { $0.select(Array(all.indices)) } ?? Array(all.indices)
        guard !indices.isEmpty else {
            throw BenchFailure.usage("the selection is empty\(common.shard.map { " (shard \($0) of \(all.count) items)" } ?? "")")
        }

        Interruption.install()
        var samples = [W.Sample?](repeating: nil, count: indices.count)
        var firstError: (index: Int, error: any Error)?
        var progress = Progress(total: indices.count, quiet: common.quiet)
        ItemScheduler(jobs: environment.jobs).run(
            count: indices.count,
            isAlone: { workload.timing(all[indices[$0]]).runsAlone },
            shouldStop: { Interruption.pending != nil },
            work: { position in try workload.run(all[indices[position]]) },
            deliver: { position, result in
                switch result {
                case .success(let sample): samples[position] = sample
                case .failure(let error):
                    if firstError == nil || position < firstError!.index { firstError = (position, error) }
                }
                progress.advance(workload.label(all[indices[position]]))
            }
        )
        progress.finish()
        if let firstError { throw firstError.error }

        let origins = workload.variantOrigins
        var finished: [FinishedItem<W.Item, W.Sample>] = []
        var events: [TimelineRecord] = []
        for (position, sample) in samples.enumerated() {
            guard let sample else { continue }
            let item = all[indices[position]]
            finished.append(FinishedItem(index: indices[position], item: item, sample: sample))
            output.add(workload.observations(for: item, sample: sample), origins: origins)
            if timeline != nil { events += workload.timeline(for: item, sample: sample) }
        }
        let interrupted = Interruption.pending
        let complete = interrupted == nil && finished.count == indices.count
        let report = try workload.report(finished, complete: complete)
        output.add(report.derived, origins: origins)

        var parameters = workload.parameters
        for (key, value) in report.parameters { parameters[key] = value }
        parameters["jobs"] = .number(Double(environment.jobs))
        if let shard = common.shard { parameters["shard"] = .string(shard.description) }
        var notes = report.notes
        if let interrupted {
            notes.insert(
                "INCOMPLETE: interrupted by \(Interruption.name(interrupted)) after \(finished.count) of \(indices.count) items",
                at: 0
            )
        }
        try timeline?.write(events, runID: output.runID, workload: W.name)
        _ = try output.finish(
            factorNames: workload.factorNames,
            parameters: parameters,
            comparisons: report.comparisons,
            notes: notes,
            complete: complete,
            plannedItems: indices.count,
            completedItems: finished.count,
            table: { report.table }
        )
        if let interrupted {
            FileHandle.standardError.write(
                Data(
                    "bench-\(W.name): interrupted by \(Interruption.name(interrupted)): wrote the \(finished.count) of \(indices.count) items that finished, marked incomplete\n"
                        .utf8
                )
            )
            exit(Interruption.exitCode(for: interrupted))
        }
        if let failure = report.failure { throw failure }
    }
}
