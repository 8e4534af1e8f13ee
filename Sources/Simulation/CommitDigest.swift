/// FNV-1a (64-bit) over commits' times and rows: a replay's cheap check that it streamed the
/// commits its validation pass saw.
public enum CommitDigest {
    public static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    @inline(__always) static func add(_ commit: Commit, to h: inout UInt64) {
        h = (h ^ UInt64(bitPattern: commit.time.nanoseconds)) &* prime
        h = (h ^ UInt64(UInt32(bitPattern: commit.rows))) &* prime
    }
}
