import Foundation
import PropertyBased
import Testing

@testable import Simulation

/// Structure-aware property test of the trace reader: valid traces (sorted times written in any
/// documented decimal form, CRLF or LF, padded fields) with at most one line corrupted the ways
/// real files go wrong. A clean trace must read back exactly; a corrupted one must be rejected at
/// the corrupted line, in one short line with no control characters.
///
/// Brief in `swift test`; PATTERNBENCH_FUZZ_ITERATIONS raises the number of traces.
@Suite struct TraceReaderPropertyTests {
    static let iterations = ProcessInfo.processInfo.environment["PATTERNBENCH_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 200

    static let corruptions: [@Sendable (String) -> String] = [
        { $0.replacingOccurrences(of: ",", with: "\u{0}junk,") },  // NUL inside the number
        { "0x" + $0 },  // hex
        { $0 + ",7" },  // a third field
        { $0.replacingOccurrences(of: ",", with: ";") },  // wrong separator
        { "1e13," + ($0.split(separator: ",").last.map(String.init) ?? "1") },  // beyond 1e12 ms
        { "\u{1B}[31m" + $0 },  // a terminal escape
        { $0 + "\u{7}" },  // a control character
        { "nan," + ($0.split(separator: ",").last.map(String.init) ?? "1") },
        { ($0.split(separator: ",").first.map(String.init) ?? "1") + ",0" },  // zero rows
        { _ in String(repeating: "9", count: 5000) },  // a line far too long
    ]

    static let input = zip(
        Gen.int(in: 1...40).array(of: 1...60),  // gaps in µs-ish units, rows from them
        Gen.int(in: 0...3),  // number format
        Gen.bool,  // CRLF
        Gen.int(in: -1...9),  // which corruption (−1: none)
        Gen.int(in: 0...100)  // where
    )

    @Test func cleanTracesReadBackAndCorruptOnesStopAtTheLine() async {
        await propertyCheck(count: Self.iterations, input: Self.input) { gaps, format, crlf, corruption, whereAt in
            var ms = 0.0
            var lines: [String] = []
            var expected: [Commit] = []
            for (i, gap) in gaps.enumerated() {
                ms += Double(gap) * 0.25
                let rows = Int32(gap % 9 + 1)
                let time: String =
                    switch format {
                    case 0: String(ms)
                    case 1: " \(ms) "
                    case 2: String(format: "%.2f", ms)
                    default: String(format: "%.3e", ms)
                    }
                lines.append("\(time),\(i % 3 == 0 ? " \(rows)" : "\(rows)")")
                expected.append(
                    Commit(time: .zero + .milliseconds(StrictNumber.decimal(time.trimmingCharacters(in: .whitespaces))!), rows: rows)
                )
            }
            var badLine: Int?
            if corruption >= 0 {
                let i = whereAt % lines.count
                lines[i] = Self.corruptions[corruption](lines[i])
                badLine = i + 2
            }
            let text = (["time_ms,rows"] + lines).joined(separator: crlf ? "\r\n" : "\n") + "\n"
            do {
                let commits = try TraceReader.parse(text, path: "p.csv")
                #expect(badLine == nil, "accepted a corrupted line \(badLine ?? 0): \(text.debugDescription.prefix(200))")
                #expect(commits == expected)
            } catch let error as InputFileError {
                #expect(error.line == badLine, "\(error)")
                #expect(error.description.count < 240)
                #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            } catch {
                Issue.record("not an InputFileError: \(error)")
            }
        }
    }
}
