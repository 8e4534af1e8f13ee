import Foundation

/// What every strict input reader (traces, skew files) shares: opening a file as a stream of
/// numbered lines, checking its header, and quoting a bad field safely in a one-line error.
public enum InputFile {
    /// The longest piece of a file an error message quotes; the rest is elided.
    package static let maximumQuote = 60

    /// The whole text of a small file. Prefer `LineStream`: this refuses files above `limit`
    /// bytes rather than reading a gigabyte to reject it.
    public static func readText(path: String, limit: Int = 16 << 20) throws(InputFileError) -> String {
        let stream = try LineStream(path: path)
        var text = ""
        while let line = try stream.next() {
            guard stream.byteCount <= UInt64(limit) else {
                throw InputFileError(path: path, message: "is larger than \(limit >> 20) MiB, the most this reader takes")
            }
            guard let s = String(validating: line, as: UTF8.self) else {
                throw InputFileError(path: path, line: stream.lineNumber, message: "is not UTF-8 text")
            }
            text += s
            text += "\n"
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
            throw InputFileError(path: path, line: number, message: "expected header '\(header)', found '\(quote(line))'")
        }
    }

    /// Checks a header line given as bytes (a line that is not UTF-8 is simply not the header).
    package static func checkHeader(
        _ line: UnsafeBufferPointer<UInt8>,
        is header: String,
        path: String,
        line number: Int
    ) throws(InputFileError) {
        try checkHeader(String(decoding: line, as: UTF8.self), is: header, path: path, line: number)
    }

    /// `text` made safe for a one-line message: control characters escaped (`\0`, `\t`, `\u{1B}`),
    /// invalid UTF-8 shown as U+FFFD, and at most `limit` characters, the rest elided with "…".
    package static func quote(_ text: some StringProtocol, limit: Int = maximumQuote) -> String {
        SafeText.oneLine(text, limit: limit, lineBreaks: .escaped)
    }

    package static func quote(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = maximumQuote) -> String {
        quote(String(decoding: bytes.prefix(limit * 4), as: UTF8.self), limit: limit)
    }
}
