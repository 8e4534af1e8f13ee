import Foundation
import Simulation
import Testing

@testable import Timekeeping

/// Replays every skew file that once made bench-clock trap, overflow or hang (Corpus/, found with
/// Corpus/find-failures.py and by review): each must now be rejected with one located line or
/// run to the end. Add a file there whenever a new failure is found.
@Suite struct RobustnessCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".csv") }.sorted()

    @Test func corpusIsThere() { #expect(Self.files.count >= 10) }

    @Test(arguments: files) func replays(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        // Two clients that arm timers (every crossing path) on every clock keep debug runs brief.
        SkewFuzzTests.check(file: text, clients: [.timeout, .durationMeter])
        if name.hasPrefix("timeout-rejected") || name.contains("century-steps") || name.contains("drift-plus") || name.contains("two-long")
        {
            #expect(throws: InputFileError.self) { try SkewFileReader.parse(text, path: name) }
        }
    }
}
