/// A validated trace file, replayed by streaming it from disk for every policy, shifted so that
/// its first commit is at time zero.
///
/// `TraceReader.open` made one pass to check every line and compute the `summary`; each
/// iterator re-opens the file and streams it again in fixed memory, re-checking every line (and a digest of the commits, not a hash of every byte).
/// Should the file change under a run (truncated, rewritten), the iterator stops early and
/// `replayProblem` says so: a run must check it before trusting the results.
public final class TraceFile: Sendable {
    public let summary: TraceSummary
    public let limits: TraceLimits
    private let problem = LockedState<InputFileError?>(nil)

    init(summary: TraceSummary, limits: TraceLimits) {
        self.summary = summary
        self.limits = limits
    }

    public var path: String { summary.path }

    /// Why a replay stopped short or saw different content than the validation pass; nil if every
    /// replay so far streamed exactly the file summarised.
    public var replayProblem: InputFileError? { problem.withLock { $0 } }

    func record(_ error: InputFileError) {
        problem.withLock { if $0 == nil { $0 = error } }
    }

    public func makeIterator() -> Iterator { Iterator(file: self) }

    /// Streams the commits of the file; nil at the end, or at the first problem (recorded).
    public struct Iterator: IteratorProtocol {
        let file: TraceFile
        var stream: LineStream?
        var parser: TraceLineParser
        var commits = 0
        var digest = CommitDigest.offset
        /// The summary's first time, copied: reading it through `file.summary` on every commit
        /// copied the summary, retaining and releasing its strings.
        let first: Int64

        init(file: TraceFile) {
            self.file = file
            first = file.summary.first.nanoseconds
            self.parser = TraceLineParser(path: file.path, limits: file.limits)
            do {
                stream = try LineStream(path: file.path)
            } catch {
                file.record(error)
            }
        }

        public mutating func next() -> Commit? {
            guard let stream else { return nil }
            do {
                if var commit = try stream.nextCommit(&parser) {
                    commits += 1
                    CommitDigest.add(commit, to: &digest)
                    // Time zero is the first commit, as in every trace format.
                    commit.time = SimInstant(nanoseconds: commit.time.nanoseconds - first)
                    return commit
                }
                let s = file.summary
                if commits != s.commits || stream.byteCount != s.bytes || digest != s.commitDigest {
                    file.record(
                        InputFileError(
                            path: file.path,
                            message:
                                "changed while the run was replaying it (\(commits) commits and \(stream.byteCount) bytes now, \(s.commits) and \(s.bytes) when checked)"
                        )
                    )
                }
            } catch {
                file.record(
                    InputFileError(
                        path: error.path,
                        line: error.line,
                        field: error.field,
                        message: error.message + " (the file changed while the run was replaying it)"
                    )
                )
            }
            self.stream = nil
            return nil
        }
    }
}
