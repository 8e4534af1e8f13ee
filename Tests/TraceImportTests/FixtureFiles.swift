import Foundation
import XCTest

/// The committed fixtures (written by scripts/trace-fixtures.py) and damaged copies of them.
enum FixtureFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A copy of fixture `name` in a fresh temporary folder, changed by `edit`.
    static func damaged(_ name: String, as newName: String? = nil, _ edit: (inout [UInt8]) -> Void) throws -> String {
        var bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        edit(&bytes)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trace-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(newName ?? name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Replaces the first occurrence of `old` with `new` in the text.
    static func replacing(_ old: String, with new: String, in bytes: inout [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let r = text.range(of: old) else { return XCTFail("'\(old)' is not in the fixture") }
        bytes = Array(text.replacingCharacters(in: r, with: new).utf8)
    }

    /// The CSV fixture's commits as the replay sees them: nanoseconds since the first.
    static func csvCommits(_ name: String) throws -> [(Int64, Int32)] {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { line -> (Int64, Int32) in
            let f = line.split(separator: ",")
            return (Int64((Double(f[0])! * 1e6).rounded()), Int32(f[1])!)
        }
        return rows.map { ($0.0 - rows[0].0, $0.1) }
    }
}
