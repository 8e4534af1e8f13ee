import Measurement
import Simulation
import TraceImport

/// An Instruments or Perfetto trace as bench-throttle's arrivals: the commits `CommitSurvey`
/// selected, replayed by streaming the file again for every policy.
///
/// Like a CSV's `TraceFile`, a replay that sees something other than what the survey counted
/// (the file changed under the run) stops, and `replayProblem` says so.
final class ImportedTrace: Sendable {
    let survey: CommitSurvey
    private let problem = LockedState<String?>(nil)

    init(path: String, format: TraceFormat, signpost: String, process: String?) throws(TraceImportError) {
        survey = try CommitSurvey(path: path, format: format, signpost: signpost, process: process)
    }

    var replayProblem: String? { problem.withLock { $0 } }

    private func record(_ message: String) {
        problem.withLock { if $0 == nil { $0 = message } }
    }

    /// From time 0 (the first commit) to the last.
    var span: SimDuration { SimDuration(nanoseconds: survey.last - survey.first) }

    var commits: StreamedCommits {
        StreamedCommits { [self] in
            var events: CommitEvents?
            do { events = try CommitEvents(survey) } catch { record("\(error)") }
            var done = false
            return AnyIterator {
                guard !done, events != nil else { return nil }
                do {
                    if let e = try events!.next() { return Commit(time: SimInstant(nanoseconds: e.time), rows: e.rows) }
                    if events!.count != self.survey.commits {
                        self.record(
                            "\(self.survey.path): changed while the run was replaying it (\(events!.count) commits now, \(self.survey.commits) when checked)"
                        )
                    }
                } catch {
                    self.record("\(error) (the file changed while the run was replaying it)")
                }
                done = true
                return nil
            }
        }
    }
}
