import Foundation
import Measurement
import Simulation

/// A user's `--trace` file, validated, with what the JSON records about it: the trace is the
/// arrival model of such a run, so the file's name, size, span and checksum are its parameters.
public struct RecordedTrace: Sendable {
    public let path: String
    /// The file name without its extension, used in the scenario names.
    public let name: String
    public let commits: Int
    /// From time 0 to the last commit, plus 1 ms.
    public let span: SimDuration
    /// FNV-1a (64 bit) over the commits' times and row counts: two runs replayed the same trace
    /// exactly when their checksums agree, whatever the file's formatting.
    public let checksum: String
    public let trace: CommitTrace

    public init(path: String) throws {
        let commits: [Commit]
        do { commits = try TraceReader.read(path: path) } catch {
            throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
        }
        self.path = path
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        self.commits = commits.count
        span = (commits.last!.time - SimInstant.zero) + .milliseconds(1)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in commits {
            for word in [UInt64(bitPattern: c.time.nanoseconds), UInt64(UInt32(bitPattern: c.rows))] {
                for shift in stride(from: 0, to: 64, by: 8) {
                    hash = (hash ^ ((word >> UInt64(shift)) & 0xff)) &* 0x0000_0100_0000_01B3
                }
            }
        }
        checksum = String(format: "fnv1a64:%016llx", hash)
        trace = .recorded(commits)
    }

    /// The trace as the JSON's arrival model.
    public var description: JSONValue {
        .object([
            "model": .string("trace"),
            "file": .string(path),
            "commits": .number(Double(commits)),
            "span_s": .number(span.seconds),
            "checksum": .string(checksum),
        ])
    }
}
