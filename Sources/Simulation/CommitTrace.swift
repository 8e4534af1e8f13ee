/// The commits one run replays: recorded in memory, streamed from a user's trace file, or
/// generated from a seed.
///
/// Neither a file nor a generated trace is ever held whole: each policy iterates it afresh and
/// gets the identical sequence, which keeps memory bounded by the model (or a 256 KiB read
/// buffer) rather than by the trace length.
public enum CommitTrace: Sequence, Sendable {
    case recorded([Commit])
    case generated(ArrivalModel, seed: UInt64, duration: SimDuration)
    /// A validated trace file (`TraceReader.open`), streamed from disk by every iterator.
    case file(TraceFile)

    public struct Iterator: IteratorProtocol {
        enum Source {
            case recorded(IndexingIterator<[Commit]>)
            case generated(ArrivalIterator)
            case file(TraceFile.Iterator)
        }
        var source: Source

        public mutating func next() -> Commit? {
            switch source {
            case .recorded(var it):
                let c = it.next()
                source = .recorded(it)
                return c
            case .generated(var it):
                let c = it.next()
                source = .generated(it)
                return c
            case .file(var it):
                let c = it.next()
                source = .file(it)
                return c
            }
        }
    }

    public func makeIterator() -> Iterator {
        switch self {
        case .recorded(let commits):
            Iterator(source: .recorded(commits.makeIterator()))
        case let .generated(model, seed, duration):
            Iterator(source: .generated(ArrivalIterator(model: model, seed: seed, duration: duration)))
        case .file(let file):
            Iterator(source: .file(file.makeIterator()))
        }
    }
}

extension CommitTrace {
    /// Generates the trace once, up front, so that every policy replays the very same array; a
    /// trace longer than `limit` commits stays lazy instead (regenerated identically per policy),
    /// which keeps memory bounded for very long runs.
    public static func pregenerated(_ model: ArrivalModel, seed: UInt64, duration: SimDuration, limit: Int = 2_000_000) -> CommitTrace {
        var commits: [Commit] = []
        var iterator = ArrivalIterator(model: model, seed: seed, duration: duration)
        while let c = iterator.next() {
            if commits.count == limit { return .generated(model, seed: seed, duration: duration) }
            commits.append(c)
        }
        return .recorded(commits)
    }
}
