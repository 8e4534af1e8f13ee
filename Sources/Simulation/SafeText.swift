/// Text from outside (a file's line, an error message quoting one) made safe to print on one line:
/// the one escaping loop behind `InputFile.quote` and `BenchMain.errorLine`.
package enum SafeText {
    /// What happens to a line break (`\n`, `\r`) and NUL.
    package enum LineBreaks: Sendable {
        /// Escaped as `\n`, `\r`, `\0`: a quoted value shown exactly as the file has it.
        case escaped
        /// A line break becomes a space and NUL `\u{0}`: a message that must stay one readable line.
        case spaces
    }

    /// `text` with control characters escaped (`\t`, `\u{1B}`: no terminal escape sequence from a
    /// file reaches the terminal), line breaks as `lineBreaks` says, and at most `limit`
    /// characters, the rest elided with "…".
    package static func oneLine(_ text: some StringProtocol, limit: Int, lineBreaks: LineBreaks) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            switch (scalar.value, lineBreaks) {
            case (0, .escaped): out += "\\0"
            case (0x0A, .escaped): out += "\\n"
            case (0x0D, .escaped): out += "\\r"
            case (0x0A, .spaces), (0x0D, .spaces): out += " "
            case (0x09, _): out += "\\t"
            case (0..<0x20, _), (0x7F..<0xA0, _), (0x2028, _), (0x2029, _):
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }
}
