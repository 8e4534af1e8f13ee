import Foundation

/// An error in an input file, located precisely enough to fix it: file, line and field.
public struct InputFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var line: Int?
    public var field: String?
    public var message: String

    public init(path: String, line: Int? = nil, field: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var location = InputFile.quote(path, limit: 120)
        if let line { location += ":\(line)" }
        if let field { return "\(location): \(field): \(message)" }
        return "\(location): \(message)"
    }
}

/// Reads a user's commit trace: a CSV with header `time_ms,rows`, plain or gzip-compressed.
///
/// Strict on purpose: a silently skipped line would change the workload without anyone noticing,
/// so every problem stops the run with the line and field that caused it, at the first bad line.
/// `open(path:limits:)` streams the file once to validate and summarise it; the returned
/// `TraceFile` streams it again for every replay, so no trace is ever held in memory whole.
public enum TraceReader {
    public static let header = "time_ms,rows"

    /// Validates the whole file in one streamed pass and returns it ready to replay
    /// (`CommitTrace.file`), with its summary (commits, span, checksum) for the results.
    public static func open(path: String, limits: TraceLimits? = nil) throws(InputFileError) -> TraceFile {
        let limits = try Self.resolve(limits)
        let stream = try LineStream(path: path, checksum: true)
        var parser = TraceLineParser(path: path, limits: limits)
        var first: Commit?
        var last = Commit(time: .zero, rows: 1)
        var commits = 0
        var rows: Int64 = 0
        var digest = CommitDigest.offset
        while let commit = try stream.nextCommit(&parser) {
            CommitDigest.add(commit, to: &digest)
            if first == nil { first = commit }
            last = commit
            commits += 1
            rows += Int64(commit.rows)
        }
        try parser.finish()
        var summary = TraceSummary(
            path: path,
            fileName: URL(fileURLWithPath: path).lastPathComponent,
            commits: commits,
            rows: rows,
            first: first!.time,
            last: last.time,
            bytes: stream.byteCount,
            compressed: stream.isCompressed,
            checksum: stream.checksum
        )
        summary.commitDigest = digest
        return TraceFile(summary: summary, limits: limits)
    }

    /// The whole trace in memory: for small files and tests. Runs replay `open(path:)` instead.
    public static func read(path: String, limits: TraceLimits? = nil) throws(InputFileError) -> [Commit] {
        let limits = try Self.resolve(limits)
        let stream = try LineStream(path: path)
        var parser = TraceLineParser(path: path, limits: limits)
        var commits: [Commit] = []
        while let line = try stream.next() {
            if let commit = try parser.parse(line, number: stream.lineNumber) { commits.append(commit) }
        }
        try parser.finish()
        return commits
    }

    static func resolve(_ limits: TraceLimits?) throws(InputFileError) -> TraceLimits {
        if let limits { return limits }
        return try TraceLimits.fromEnvironment()
    }

    /// Parses a trace given as text (tests, small inline traces).
    public static func parse(_ text: String, path: String = "<trace>", limits: TraceLimits = .default) throws(InputFileError) -> [Commit] {
        var parser = TraceLineParser(path: path, limits: limits)
        var commits: [Commit] = []
        var number = 0
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            var bytes = Array(line)
            if bytes.last == 0x0D { bytes.removeLast() }
            let commit = try bytes.withUnsafeBufferPointer { (b) throws(InputFileError) -> Commit? in
                try parser.parse(b, number: number)
            }
            if let commit { commits.append(commit) }
        }
        try parser.finish()
        return commits
    }
}
