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
    /// Commits from a reader this module does not know (an imported Instruments or Perfetto
    /// trace), streamed afresh by every iterator.
    case streamed(StreamedCommits)

    public struct Iterator: IteratorProtocol {
        enum Source: UInt8 { case generated, recorded, file, streamed }

        // Not an enum with payloads: an enum's payload cannot be mutated in place, so each
        // `next()` copied the whole iterator out and back (memmove was a tenth of bench-throttle's
        // profile). Not optionals either: reading an `ArrivalIterator?`'s tag was an
        // out-of-line call, twice per commit. `source` says which one is live; the
        // generated iterator of a recorded or file trace is an empty placeholder never read.
        let source: Source
        var generated: ArrivalIterator
        var recorded: IndexingIterator<[Commit]>?
        var file: TraceFile.Iterator?
        var streamed: AnyIterator<Commit>?

        init(generated: ArrivalIterator) {
            source = .generated
            self.generated = generated
        }

        init(recorded: IndexingIterator<[Commit]>) {
            source = .recorded
            generated = .placeholder
            self.recorded = recorded
        }

        init(file: TraceFile.Iterator) {
            source = .file
            generated = .placeholder
            self.file = file
        }

        init(streamed: AnyIterator<Commit>) {
            source = .streamed
            generated = .placeholder
            self.streamed = streamed
        }

        public mutating func next() -> Commit? {
            switch source {
            case .generated: generated.next()
            case .recorded: recorded!.next()
            case .file: file!.next()
            case .streamed: streamed!.next()
            }
        }
    }

    public func makeIterator() -> Iterator {
        switch self {
        case .recorded(let commits):
            Iterator(recorded: commits.makeIterator())
        case let .generated(model, seed, duration):
            Iterator(generated: ArrivalIterator(model: model, seed: seed, duration: duration))
        case .file(let file):
            Iterator(file: file.makeIterator())
        case .streamed(let commits):
            Iterator(streamed: commits.makeIterator())
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
