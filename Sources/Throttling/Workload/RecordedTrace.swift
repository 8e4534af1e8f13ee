import Foundation
import Measurement
import Records
import Simulation

/// A user's `--trace` file, validated in one streaming pass, with what the JSON records about it:
/// the trace is the arrival model of such a run, so its file, size, span and checksum are its
/// parameters. Every policy replays it by streaming the file again (`CommitTrace.file`); nothing
/// holds the whole trace in memory.
public struct RecordedTrace: Sendable {
    public let file: TraceFile
    /// The file name without its extension(s), used in the scenario names.
    public let name: String

    public init(path: String) throws {
        do { file = try TraceReader.open(path: path) } catch {
            throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
        }
        var url = URL(fileURLWithPath: path)
        if url.pathExtension == "gz" { url = url.deletingPathExtension() }
        name = url.deletingPathExtension().lastPathComponent
    }

    public var path: String { file.path }
    /// From time 0 to the last commit, plus 1 ms.
    public var span: SimDuration { file.summary.span + .milliseconds(1) }
    public var trace: CommitTrace { .file(file) }

    /// Fails when a replay streamed something other than the file validated (it changed under the run).
    public func checkReplays() throws {
        if let problem = file.replayProblem { throw BenchFailure.input(problem.description) }
    }

    /// The trace as the JSON's arrival model.
    public var description: JSONValue {
        let s = file.summary
        return .object([
            "model": .string("trace"),
            "file": .string(s.path),
            "commits": .number(Double(s.commits)),
            "rows": .number(Double(s.rows)),
            "span_s": .number(span.seconds),
            "bytes": .number(Double(s.bytes)),
            "compressed": .bool(s.compressed),
            "checksum": .string(s.checksumText),
        ])
    }
}
