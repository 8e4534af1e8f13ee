import Foundation
import Measurement

/// The `--events` (or `--perfetto`) file: checked before the run (so a bad path fails in a second,
/// not after the matrix) and written atomically: `--events` after the run, `--perfetto` streamed
/// while it runs and put in place at its end.
package struct TimelineFile {
    package let path: String
    package let flag: String

    package init(path: String, flag: String = "--events") throws {
        self.path = path
        self.flag = flag
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BenchFailure.output("\(flag) \(path): is a folder, not a file")
        }
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchFailure.output("\(flag) \(path): folder \(dir) does not exist")
        }
        guard access(dir, W_OK) == 0 else { throw BenchFailure.output("\(flag) \(path): folder \(dir) is not writable") }
    }

    package func write(_ records: [TimelineRecord], runID: String, workload: String) throws {
        let stamped = records.map { r in
            var copy = r
            copy.runID = runID
            copy.workload = workload
            return copy
        }
        do { try AtomicFile.write(TimelineRecord.csv(stamped), to: path) } catch { throw BenchFailure.output(error.description) }
    }

    /// Opens a Perfetto trace that is written item by item as the run goes (staged beside the
    /// path, put in place by `commit(_:)`).
    package func perfettoStream(window: Range<Int64>?, limit: Int?) throws -> PerfettoStream {
        do { return PerfettoStream(file: try SpoolFile.staged(to: path), window: window, limit: limit) } catch {
            throw BenchFailure.output(error.description)
        }
    }

    /// Puts a finished Perfetto stream in place.
    package func commit(_ stream: PerfettoStream) throws {
        do { try stream.finish().commit() } catch { throw BenchFailure.output(error.description) }
    }
}
