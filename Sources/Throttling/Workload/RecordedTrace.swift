import Foundation
import Measurement
import Records
import Simulation
import TraceImport

/// A user's `--trace` file, validated in one streaming pass, with what the JSON records about it:
/// the trace is the arrival model of such a run, so its file, size, span and checksum are its
/// parameters. Every policy replays it by streaming the file again; nothing holds the whole
/// trace in memory. The format (CSV, xctrace XML, Perfetto) is told from the content.
public struct RecordedTrace: Sendable {
    /// The CSV, when the trace is one.
    public let file: TraceFile?
    /// The Instruments or Perfetto trace, when it is one.
    let imported: ImportedTrace?
    public let path: String
    /// The file name without its extension(s), used in the scenario names.
    public let name: String

    /// Reads `path`; for an xctrace or Perfetto trace, `signpost` names the commit signpost (nil:
    /// `commit`) and `process` the process (nil: the one with the most commits). A CSV has
    /// neither, so either one given with a CSV is refused rather than silently ignored.
    public init(path: String, signpost: String? = nil, process: String? = nil) throws {
        self.path = path
        let format: TraceFormat
        do { format = try TraceFormat.sniff(path: path) } catch {
            throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
        }
        if format == .csv {
            if signpost != nil || process != nil {
                throw BenchFailure.usage(
                    "--trace-signpost and --trace-process choose signposts in an xctrace or Perfetto trace; \(path) is a CSV"
                )
            }
            do { file = try TraceReader.open(path: path) } catch {
                throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
            }
            imported = nil
        } else {
            do { imported = try ImportedTrace(path: path, format: format, signpost: signpost ?? "commit", process: process) } catch {
                throw BenchFailure.input(error.description)
            }
            file = nil
        }
        var url = URL(fileURLWithPath: path)
        if url.pathExtension == "gz" { url = url.deletingPathExtension() }
        name = url.deletingPathExtension().lastPathComponent
    }

    /// From time 0 (the first commit) to the last commit, plus 1 ms.
    public var span: SimDuration {
        (file?.summary.span ?? imported!.span) + .milliseconds(1)
    }

    public var trace: CommitTrace {
        if let file { return .file(file) }
        return .streamed(imported!.commits)
    }

    /// Fails when a replay streamed something other than the file validated (it changed under the run).
    public func checkReplays() throws {
        if let problem = file?.replayProblem { throw BenchFailure.input(problem.description) }
        if let problem = imported?.replayProblem { throw BenchFailure.input(problem) }
    }

    /// The trace as the JSON's arrival model.
    public var description: JSONValue {
        if let s = file?.summary {
            return .object([
                "model": .string("trace"),
                "format": .string(TraceFormat.csv.rawValue),
                "file": .string(s.path),
                "commits": .number(Double(s.commits)),
                "rows": .number(Double(s.rows)),
                "span_s": .number(span.seconds),
                "bytes": .number(Double(s.bytes)),
                "compressed": .bool(s.compressed),
                "checksum": .string(s.checksumText),
            ])
        }
        let s = imported!.survey
        return .object([
            "model": .string("trace"),
            "format": .string(s.format.rawValue),
            "file": .string(s.path),
            "signpost": .string(s.signpost),
            "process": .string(s.process),
            "commits": .number(Double(s.commits)),
            "rows": .number(Double(s.rows)),
            "span_s": .number(span.seconds),
            "bytes": .number(Double(s.bytes)),
        ])
    }
}
