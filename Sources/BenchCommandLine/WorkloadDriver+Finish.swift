import Foundation
import Measurement
import Processes
import Records
import Timelines

extension WorkloadDriver {
    /// How the items of a run ended, for its metadata and its exit.
    struct RunEnding {
        /// The signal that interrupted the run, nil when it was not.
        let interrupted: Int32?
        let planned: Int
        let finished: Int
        /// Isolated items that failed, in matrix order.
        let failures: [IsolatedItemFailure]

        /// Every planned item finished, none failed, nothing interrupted the run.
        var complete: Bool { interrupted == nil && finished == planned && failures.isEmpty }
    }

    /// Reports the aggregate, writes the derived records, the streams and the run's metadata, then
    /// ends the run: exits with the interrupt's code, throws when an item failed or the report did.
    static func finish<W: Workload>(
        _ workload: W,
        sink: inout ItemSink<W>,
        ending: RunEnding,
        common: CommonOptions,
        jobs: Int,
        timeline: TimelineFile?,
        perfettoFile: TimelineFile?
    ) throws {
        let report = try workload.report(sink.aggregate, summaries: try sink.output.summaries(), complete: ending.complete)
        try sink.addDerived(report)
        var parameters = runParameters(workload, report: report, ending: ending, common: common, jobs: jobs)
        var notes = runNotes(report, ending: ending)
        if let timeline, let events = sink.events { try timeline.commit(events) }
        if let perfettoFile, let perfetto = sink.perfetto {
            perfettoParameters(perfetto, common: common, into: &parameters)
            try commit(perfetto, to: perfettoFile, common: common, workload: W.name, notes: &notes)
        }
        try sink.output.finish(
            parameters: parameters,
            randomStreamVersion: W.randomStreamVersion,
            comparisons: report.comparisons,
            notes: notes,
            complete: ending.complete,
            plannedItems: ending.planned,
            completedItems: ending.finished,
            table: { report.table }
        )
        try endRun(W.name, ending, report: report)
    }

    /// The run's parameters: the workload's, the report's, then the driver's own (jobs, shard, failed items).
    static func runParameters<W: Workload>(
        _ workload: W,
        report: WorkloadReport,
        ending: RunEnding,
        common: CommonOptions,
        jobs: Int
    )
        -> [String: JSONValue]
    {
        var parameters = workload.parameters
        for (key, value) in report.parameters { parameters[key] = value }
        parameters["jobs"] = .number(Double(jobs))
        if let shard = common.shard { parameters["shard"] = .string(shard.description) }
        if !ending.failures.isEmpty {
            parameters["failed_items"] = .array(
                ending.failures.map { .object(["item": .string($0.label), "reason": .string($0.reason)]) }
            )
        }
        return parameters
    }

    /// The report's notes, after a line for the interrupt and one per failed item, in that order.
    static func runNotes(_ report: WorkloadReport, ending: RunEnding) -> [String] {
        var notes = report.notes
        for failure in ending.failures.reversed() { notes.insert("FAILED: \(failure.description)", at: 0) }
        if let interrupted = ending.interrupted {
            notes.insert(
                "INCOMPLETE: interrupted by \(Interruption.name(interrupted)) after \(ending.finished) of \(ending.planned) items",
                at: 0
            )
        }
        return notes
    }

    /// `--perfetto`'s count of events, and with `--perfetto-limit` the limit and what it dropped.
    static func perfettoParameters(_ perfetto: PerfettoStream, common: CommonOptions, into parameters: inout [String: JSONValue]) {
        parameters["perfetto_events"] = .number(Double(perfetto.eventCount))
        if let limit = common.perfettoLimit {
            parameters["perfetto_limit"] = .number(Double(limit))
            parameters["perfetto_dropped"] = .number(Double(perfetto.dropped))
        }
    }

    /// Writes the `--perfetto` file; a trace the limit cut says so in a note and on stderr.
    static func commit(
        _ perfetto: PerfettoStream,
        to file: TimelineFile,
        common: CommonOptions,
        workload name: String,
        notes: inout [String]
    )
        throws
    {
        if perfetto.dropped > 0, let limit = common.perfettoLimit {
            notes.append(
                "--perfetto: cut to each item's earliest events (\(perfetto.dropped) of \(perfetto.dropped + perfetto.eventCount) dropped, --perfetto-limit \(limit))"
            )
            if !common.quiet {
                FileHandle.standardError.write(
                    Data(
                        "bench-\(name): --perfetto: cut to \(perfetto.eventCount) events (\(perfetto.dropped) dropped, --perfetto-limit \(limit))\n"
                            .utf8
                    )
                )
            }
        }
        try file.commit(perfetto)
    }

    /// Ends a written run: an interrupted one exits with the signal's code, one with failed items or
    /// a failing report throws (the files are written either way).
    static func endRun(_ name: String, _ ending: RunEnding, report: WorkloadReport) throws {
        if let interrupted = ending.interrupted {
            FileHandle.standardError.write(
                Data(
                    "bench-\(name): interrupted by \(Interruption.name(interrupted)): wrote the \(ending.finished) of \(ending.planned) items that finished, marked incomplete\n"
                        .utf8
                )
            )
            ItemFolders.removeOwn()  // items abandoned in flight never reach their own cleanup
            exit(Interruption.exitCode(for: interrupted))
        }
        if let first = ending.failures.first {
            let more = ending.failures.count > 1 ? " and \(ending.failures.count - 1) more" : ""
            throw BenchFailure.runtime(
                "\(ending.failures.count) of \(ending.planned) items failed (the rest is written, marked incomplete): \(first.description)\(more)"
            )
        }
        if let failure = report.failure { throw failure }
    }
}
