import Foundation
import Measurement
import Records

/// `differential.json`: what a differential run compared and the minimal case it found, the file
/// `--replay-case` reads back.
///
/// `{tool, workload, variants, seed, time_tolerance_ns, cases, diverged, minimal}` with `minimal`
/// null when no case diverged, else `{size, seed, case_index, original_size, shrink_steps, input,
/// first_difference: {index, at_ns, a, b}}`; `size` counts the minimal case's input events.
public struct DifferentialReport<Case: DifferentialCase>: Codable, Sendable {
    /// Marks the file as this tool's, so that replaying another file fails with a clear line.
    public var tool = DifferentialReportHeader.toolMark
    public var workload: String
    public var variants: [String]
    public var seed: UInt64
    public var timeToleranceNs: Int64
    public var cases: Int
    public var diverged: Int
    public var minimal: MinimalCase<Case>?

    enum CodingKeys: String, CodingKey {
        case tool, workload, variants, seed
        case timeToleranceNs = "time_tolerance_ns"
        case cases, diverged, minimal
    }

    /// The report of `outcome`, a run of `variants` from `seed`.
    public init(outcome: DifferentialOutcome<Case>, variants: [String], seed: UInt64, toleranceNs: Int64) {
        workload = Case.workload
        self.variants = variants
        self.seed = seed
        timeToleranceNs = toleranceNs
        cases = outcome.cases
        diverged = outcome.diverged
        minimal = outcome.minimal
    }

    /// Encodes `minimal` as null when there is none, rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tool, forKey: .tool)
        try c.encode(workload, forKey: .workload)
        try c.encode(variants, forKey: .variants)
        try c.encode(seed, forKey: .seed)
        try c.encode(timeToleranceNs, forKey: .timeToleranceNs)
        try c.encode(cases, forKey: .cases)
        try c.encode(diverged, forKey: .diverged)
        try c.encode(minimal, forKey: .minimal)
    }

    /// Writes the report to `differential.json` in `folder`, atomically (a reader never sees half).
    public func write(toFolder folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent("differential.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw BenchFailure.output("cannot encode \(path): \(error)") }
        do { try AtomicFile.write(data + Data("\n".utf8), to: path) } catch { throw BenchFailure.output(error.description) }
        return path
    }

    /// Reads a report of this workload from `path`: a missing, damaged or foreign file is a
    /// one-line usage failure (exit 64) naming what is wrong.
    public static func read(_ path: String) throws(BenchFailure) -> DifferentialReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .usage("--replay-case: cannot read \(path)")
        }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(DifferentialReportHeader.self, from: data) else {
            throw .usage("--replay-case: \(path) is not a differential.json (damaged or another tool's file)")
        }
        guard header.tool == DifferentialReportHeader.toolMark else {
            throw .usage("--replay-case: \(path) was written by '\(header.tool)', not by a differential run")
        }
        guard header.workload == Case.workload else {
            throw .usage("--replay-case: \(path) is a \(header.workload) case, not a \(Case.workload) one")
        }
        do { return try decoder.decode(DifferentialReport.self, from: data) } catch {
            throw .usage("--replay-case: \(path) is damaged: \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let c): "missing '\((c.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.dataCorrupted(let c):
            "bad value at '\(c.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: "\(error)"
        }
    }
}

/// The part of `differential.json` read before the workload's case type is known.
public struct DifferentialReportHeader: Codable, Sendable {
    /// What every differential report's `tool` says.
    public static let toolMark = "patternbench-differential"
    public var tool: String
    public var workload: String
}
