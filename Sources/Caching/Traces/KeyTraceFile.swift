import Foundation
import Measurement
import Simulation

/// A user's `--trace` file: a CSV with the header `key` and one read per line, streamed line by
/// line (the file is never held whole in memory), keys numbered in order of first appearance.
///
/// Every malformed line is a one-line error naming the file and line.
public struct KeyTraceFile: Sendable {
    public let path: String
    /// The file name without its extension (the scenario is `trace-<name>`).
    public let name: String
    public let keys: [Int]
    public let distinctKeys: Int
    /// FNV-1a (64 bit) over the key strings and line ends: equal checksums, same trace.
    public let checksum: String

    public init(path: String) throws(BenchFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingInput("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw .input("\(path): is a directory, expected a CSV file") }
        guard let file = fopen(path, "r") else { throw .input("\(path): cannot be read") }
        defer { fclose(file) }
        var ids: [String: Int] = [:]
        var keys: [Int] = []
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(buffer) }
        var number = 0
        var sawHeader = false
        while getline(&buffer, &capacity, file) >= 0 {
            number += 1
            guard let raw = buffer.flatMap({ String(validatingCString: $0) }) else {
                throw .input("\(path):\(number): not UTF-8 text")
            }
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if !sawHeader {
                line = line.replacingOccurrences(of: "\u{FEFF}", with: "")
                guard line == "key" else { throw .input("\(path):\(number): expected header 'key', found '\(line)'") }
                sawHeader = true
                continue
            }
            guard !line.isEmpty else { throw .input("\(path):\(number): empty key") }
            guard !line.contains(",") else { throw .input("\(path):\(number): expected one column 'key', found '\(line)'") }
            let id: Int
            if let known = ids[line] {
                id = known
            } else {
                id = ids.count
                ids[line] = id
            }
            keys.append(id)
            for byte in line.utf8 + [10] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        guard sawHeader else { throw .input("\(path):1: empty file, expected header 'key'") }
        guard !keys.isEmpty else { throw .input("\(path): no reads after the header") }
        self.path = path
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        self.keys = keys
        distinctKeys = ids.count
        checksum = String(format: "fnv1a64:%016llx", hash)
    }
}
