import Foundation

/// What every strict input reader (traces, skew files) needs before parsing: the file's text, or
/// an `InputFileError` that says why there is none; and its lines, numbered from 1.
public enum InputFile {
    public static func readText(path: String) throws(InputFileError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError(path: path, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw InputFileError(path: path, message: "is a directory, expected a CSV file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFileError(path: path, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputFileError(path: path, message: "is not UTF-8 text")
        }
        return text
    }

    /// The lines of `text` with surrounding whitespace trimmed, numbered from 1. Splits on every
    /// newline, including "\r\n", which Swift treats as a single Character (so splitting on "\n"
    /// alone would miss it).
    public static func lines(_ text: String) -> [(number: Int, text: String)] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().map {
            ($0.offset + 1, $0.element.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Checks a CSV's header line (a byte-order mark and spaces are ignored), naming the line.
    public static func checkHeader(_ line: String, is header: String, path: String, line number: Int) throws(InputFileError) {
        let cleaned = line.replacingOccurrences(of: "\u{FEFF}", with: "").replacingOccurrences(of: " ", with: "")
        guard cleaned == header else {
            throw InputFileError(path: path, line: number, message: "expected header '\(header)', found '\(line)'")
        }
    }
}
