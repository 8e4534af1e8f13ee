/// What a replayed trace was, for the results: which file, how many commits over what span, and a
/// checksum of its text, so that two runs can tell whether they replayed the same trace.
public struct TraceSummary: Sendable, Hashable, Encodable {
    /// The path as given on the command line.
    public var path: String
    /// The file's name without its folder.
    public var fileName: String
    public var commits: Int
    /// Rows over all commits.
    public var rows: Int64
    /// The first and last commit times.
    public var first: SimInstant
    public var last: SimInstant
    /// Bytes of text (after decompression).
    public var bytes: UInt64
    /// Whether the file is gzip-compressed.
    public var compressed: Bool
    /// FNV-1a (64-bit) of the text (after decompression, so the same trace gzipped or not has
    /// the same checksum).
    public var checksum: UInt64
    /// FNV-1a over the parsed commits (time and rows), not the text: what each replay, which
    /// parses every line anyway, compares to notice a changed file without hashing every byte
    /// again (that hash was a seventh of a replay's time). Not written to the results.
    public var commitDigest: UInt64 = CommitDigest.offset

    /// The time from the first commit, the replay's time zero, to the last (the replay's arrival
    /// window ends 1 ms later, so that the last commit is inside it).
    public var span: SimDuration { last - first }

    /// The checksum as written in the results: `fnv1a64:` and 16 hex digits.
    public var checksumText: String {
        let hex = String(checksum, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    enum CodingKeys: String, CodingKey {
        case path
        case fileName = "file"
        case commits, rows
        case spanMs = "span_ms"
        case firstMs = "first_ms"
        case bytes, compressed, checksum
    }

    public init(
        path: String,
        fileName: String,
        commits: Int,
        rows: Int64,
        first: SimInstant,
        last: SimInstant,
        bytes: UInt64,
        compressed: Bool,
        checksum: UInt64
    ) {
        self.path = path
        self.fileName = fileName
        self.commits = commits
        self.rows = rows
        self.first = first
        self.last = last
        self.bytes = bytes
        self.compressed = compressed
        self.checksum = checksum
    }

    /// Encodes as `{"path", "file", "commits", "rows", "span_ms", "first_ms", "bytes",
    /// "compressed", "checksum": "fnv1a64:…"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(fileName, forKey: .fileName)
        try c.encode(commits, forKey: .commits)
        try c.encode(rows, forKey: .rows)
        try c.encode(span.milliseconds, forKey: .spanMs)
        try c.encode(first.nanoseconds == 0 ? 0 : Double(first.nanoseconds) / 1e6, forKey: .firstMs)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(compressed, forKey: .compressed)
        try c.encode(checksumText, forKey: .checksum)
    }
}
