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
        var location = path
        if let line { location += ":\(line)" }
        if let field { return "\(location): \(field): \(message)" }
        return "\(location): \(message)"
    }
}

/// Reads a user's commit trace: a CSV with header `time_ms,rows`.
///
/// Strict on purpose: a silently skipped line would change the workload without anyone noticing,
/// so every problem stops the run with the line and field that caused it.
public enum TraceReader {
    public static let header = "time_ms,rows"

    public static func read(path: String) throws(InputFileError) -> [Commit] {
        try parse(try InputFile.readText(path: path), path: path)
    }

    public static func parse(_ text: String, path: String = "<trace>") throws(InputFileError) -> [Commit] {
        var commits: [Commit] = []
        var sawHeader = false
        var previous = SimInstant(nanoseconds: -1)
        for (lineNumber, trimmed) in InputFile.lines(text) {
            if trimmed.isEmpty { continue }
            if !sawHeader {
                try InputFile.checkHeader(trimmed, is: header, path: path, line: lineNumber)
                sawHeader = true
                continue
            }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw InputFileError(path: path, line: lineNumber, message: "expected 2 fields (time_ms,rows), found \(fields.count)")
            }
            let timeText = fields[0].trimmingCharacters(in: .whitespaces)
            let rowsText = fields[1].trimmingCharacters(in: .whitespaces)
            guard let ms = Double(timeText) else {
                throw InputFileError(path: path, line: lineNumber, field: "time_ms", message: "'\(timeText)' is not a number")
            }
            guard ms.isFinite, ms >= 0 else {
                throw InputFileError(path: path, line: lineNumber, field: "time_ms", message: "must be a finite number ≥ 0, got \(timeText)")
            }
            guard ms <= 1e12 else {
                throw InputFileError(path: path, line: lineNumber, field: "time_ms", message: "\(timeText) is beyond the supported range (1e12 ms)")
            }
            guard let rows = Int32(rowsText) else {
                throw InputFileError(path: path, line: lineNumber, field: "rows", message: "'\(rowsText)' is not a whole number")
            }
            guard rows > 0 else {
                throw InputFileError(path: path, line: lineNumber, field: "rows", message: "must be ≥ 1, got \(rows)")
            }
            let time = SimInstant.zero + .milliseconds(ms)
            guard time >= previous else {
                throw InputFileError(path: path, line: lineNumber, field: "time_ms", message: "\(timeText) is earlier than the line before: the trace must be sorted by time")
            }
            previous = time
            commits.append(Commit(time: time, rows: rows))
        }
        guard sawHeader else {
            throw InputFileError(path: path, message: "is empty; expected header '\(header)' and at least one commit")
        }
        guard !commits.isEmpty else {
            throw InputFileError(path: path, message: "has a header but no commits")
        }
        return commits
    }
}
