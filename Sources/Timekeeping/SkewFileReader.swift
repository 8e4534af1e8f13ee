import Foundation
import Simulation

/// Reads a user's skew scenario: a CSV with header `at_s,kind,value,duration_s`.
///
/// `kind` is `step` (value: seconds), `slew` (value: ppm, for duration_s seconds), `suspend` (for
/// duration_s seconds) or `drift` (value: ppm, for duration_s seconds or to the end when empty).
/// Strict like `TraceReader`: streamed line by line, and every problem stops the run with the
/// line and the field — each event on its own, then the events together: overlaps, and clocks
/// whose combined steps and rates would leave the range a 64-bit reading holds.
public enum SkewFileReader {
    public static let header = "at_s,kind,value,duration_s"
    /// The most events a file may hold (each costs a few segments of the clock schedule).
    public static let maximumEvents = 1_000_000

    public static func read(path: String) throws(InputFileError) -> SkewScenario {
        let stream = try LineStream(path: path)
        var parser = Parser(path: path)
        while let line = try stream.next() {
            guard let text = String(validating: line, as: UTF8.self) else {
                throw InputFileError(path: path, line: stream.lineNumber, message: "is not UTF-8 text: '\(InputFile.quote(line))'")
            }
            try parser.add(text, number: stream.lineNumber)
        }
        return SkewScenario.fromFile(
            name: "file:\(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)",
            events: try parser.finish()
        )
    }

    public static func parse(_ text: String, path: String = "<skew>") throws(InputFileError) -> [SkewEvent] {
        var parser = Parser(path: path)
        // Split the bytes on "\n": as Characters, "\r\n" is one grapheme that is not "\n".
        for (number, line) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            try parser.add(String(decoding: line, as: UTF8.self), number: number + 1)
        }
        return try parser.finish()
    }

    /// One line at a time, so that a file is never held whole.
    struct Parser {
        let path: String
        var events: [SkewEvent] = []
        var lines: [Int] = []
        var sawHeader = false

        init(path: String) { self.path = path }

        mutating func add(_ raw: String, number lineNumber: Int) throws(InputFileError) {
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
            if !sawHeader {
                try InputFile.checkHeader(trimmed, is: header, path: path, line: lineNumber)
                sawHeader = true
                return
            }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 4 else {
                throw InputFileError(path: path, line: lineNumber, message: "expected 4 fields (\(header)), found \(fields.count)")
            }
            guard events.count < maximumEvents else {
                throw InputFileError(
                    path: path,
                    line: lineNumber,
                    message: "more than \(maximumEvents) events, the most a skew file may hold"
                )
            }
            let at = try number(fields[0], field: "at_s", path: path, line: lineNumber, emptyAllowed: false)
            guard let kind = SkewEvent.Kind(rawValue: fields[1].lowercased()) else {
                throw InputFileError(
                    path: path,
                    line: lineNumber,
                    field: "kind",
                    message: "'\(InputFile.quote(fields[1]))' is not one of step, slew, suspend, drift"
                )
            }
            let value = try number(fields[2], field: "value", path: path, line: lineNumber, emptyAllowed: kind == .suspend)
            let duration = try number(
                fields[3],
                field: "duration_s",
                path: path,
                line: lineNumber,
                emptyAllowed: kind == .step || kind == .drift
            )
            let event = SkewEvent(at: at, kind: kind, value: value, duration: duration)
            if let (field, message) = event.problem() {
                throw InputFileError(path: path, line: lineNumber, field: field, message: message)
            }
            if let previous = events.last, at < previous.at {
                throw InputFileError(
                    path: path,
                    line: lineNumber,
                    field: "at_s",
                    message: "\(InputFile.quote(fields[0])) is earlier than line \(lines.last!): events must be sorted by at_s"
                )
            }
            events.append(event)
            lines.append(lineNumber)
        }

        func finish() throws(InputFileError) -> [SkewEvent] {
            guard sawHeader else {
                throw InputFileError(path: path, message: "is empty; expected header '\(header)' and at least one event")
            }
            guard !events.isEmpty else {
                throw InputFileError(path: path, message: "has a header but no events")
            }
            if let (index, other, reason) = ClockSchedule.conflict(in: events) {
                throw InputFileError(path: path, line: lines[index], field: "at_s", message: "\(reason) (line \(lines[other]))")
            }
            // The events together: every clock must stay in range up to the end of the run and the
            // longest a pending timer is followed (a week after the last client event).
            let scenario = SkewScenario.fromFile(name: "check", events: events)
            let until = ClockSchedule.ns(scenario.duration) + SimRunner.horizonAfterWork + 86_400 * 1_000_000_000
            if let (index, reason) = ClockSchedule(events: events).rangeProblem(until: until) {
                throw InputFileError(path: path, line: lines[index], message: reason)
            }
            return events
        }
    }

    static func number(_ text: String, field: String, path: String, line: Int, emptyAllowed: Bool) throws(InputFileError) -> Double {
        if text.isEmpty {
            guard emptyAllowed else { throw InputFileError(path: path, line: line, field: field, message: "is empty") }
            return 0
        }
        // Plain decimals only: no hex, no text after a NUL; nan and inf named so the message is clear.
        guard let value = StrictNumber.decimal(text) else {
            if StrictNumber.isNonFiniteWord(text) {
                throw InputFileError(
                    path: path,
                    line: line,
                    field: field,
                    message: "must be a finite number, got '\(InputFile.quote(text))'"
                )
            }
            throw InputFileError(path: path, line: line, field: field, message: "'\(InputFile.quote(text))' is not a number")
        }
        guard value.isFinite else {
            throw InputFileError(path: path, line: line, field: field, message: "must be a finite number, got '\(InputFile.quote(text))'")
        }
        return value
    }
}
