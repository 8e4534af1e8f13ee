/// A commit sequence whose reader lives above this module (an imported Instruments or Perfetto
/// trace): each call of `makeIterator` streams it from the start, so nothing holds it whole.
public final class StreamedCommits: Sendable {
    private let make: @Sendable () -> AnyIterator<Commit>

    public init(_ make: @escaping @Sendable () -> AnyIterator<Commit>) {
        self.make = make
    }

    public func makeIterator() -> AnyIterator<Commit> { make() }
}
