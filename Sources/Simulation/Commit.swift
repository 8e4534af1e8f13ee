/// One database commit: when it happened and how many rows it changed.
public struct Commit: Hashable, Sendable {
    public var time: SimInstant
    public var rows: Int32

    @inlinable public init(time: SimInstant, rows: Int32) {
        self.time = time
        self.rows = rows
    }
}
