import Foundation
import Simulation

/// Reads a user's skew scenario: a CSV with header `at_s,kind,value,duration_s`.
///
/// `kind` is `step` (value: seconds), `slew` (value: ppm, for duration_s seconds), `suspend` (for
/// duration_s seconds) or `drift` (value: ppm, for duration_s seconds or to the end when empty).
/// Strict like `TraceReader`: every problem stops the run with the line and the field.
public enum SkewFileReader {
    public static let header = "at_s,kind,value,duration_s"

    public static func read(path: String) throws(InputFileError) -> SkewScenario {
        let events = try parse(try InputFile.readText(path: path), path: path)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return SkewScenario.fromFile(name: "file:\(name)", events: events)
    }

    public static func parse(_ text: String, path: String = "<skew>") throws(InputFileError) -> [SkewEvent] {
        var events: [SkewEvent] = []
        var lines: [Int] = []
        var sawHeader = false
        for (lineNumber, trimmed) in InputFile.lines(text) {
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if !sawHeader {
                try InputFile.checkHeader(trimmed, is: header, path: path, line: lineNumber)
                sawHeader = true
                continue
            }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 4 else {
                throw InputFileError(path: path, line: lineNumber, message: "expected 4 fields (\(header)), found \(fields.count)")
            }
            let at = try number(fields[0], field: "at_s", path: path, line: lineNumber, emptyAllowed: false)
            guard let kind = SkewEvent.Kind(rawValue: fields[1].lowercased()) else {
                throw InputFileError(path: path, line: lineNumber, field: "kind", message: "'\(fields[1])' is not one of step, slew, suspend, drift")
            }
            let value = try number(fields[2], field: "value", path: path, line: lineNumber, emptyAllowed: kind == .suspend)
            let duration = try number(fields[3], field: "duration_s", path: path, line: lineNumber, emptyAllowed: kind == .step || kind == .drift)
            let event = SkewEvent(at: at, kind: kind, value: value, duration: duration)
            if let (field, message) = event.problem() {
                throw InputFileError(path: path, line: lineNumber, field: field, message: message)
            }
            if let previous = events.last, at < previous.at {
                throw InputFileError(path: path, line: lineNumber, field: "at_s", message: "\(fields[0]) is earlier than line \(lines.last!): events must be sorted by at_s")
            }
            events.append(event)
            lines.append(lineNumber)
        }
        guard sawHeader else {
            throw InputFileError(path: path, message: "is empty; expected header '\(header)' and at least one event")
        }
        guard !events.isEmpty else {
            throw InputFileError(path: path, message: "has a header but no events")
        }
        if let (index, other, reason) = ClockSchedule.conflict(in: events) {
            throw InputFileError(path: path, line: lines[index], field: "at_s", message: "\(reason) (line \(lines[other]))")
        }
        return events
    }

    static func number(_ text: String, field: String, path: String, line: Int, emptyAllowed: Bool) throws(InputFileError) -> Double {
        if text.isEmpty {
            guard emptyAllowed else { throw InputFileError(path: path, line: line, field: field, message: "is empty") }
            return 0
        }
        // Double("nan") and Double("inf") parse; reject them by name so the message is clear.
        guard let value = Double(text) else {
            throw InputFileError(path: path, line: line, field: field, message: "'\(text)' is not a number")
        }
        guard value.isFinite else {
            throw InputFileError(path: path, line: line, field: field, message: "must be a finite number, got '\(text)'")
        }
        return value
    }
}
