import Foundation
import Measurement

/// The `--events` (or `--perfetto`) file: checked before the run (so a bad path fails in a second,
/// not after the matrix) and written after it through `AtomicFile` (atomically where it is a file).
package struct TimelineFile {
    package let path: String
    package let flag: String

    /// Checks the path: a folder is refused; a new or regular file needs a writable folder, or the
    /// `--output` folder the run is about to create (`outputFolder`, checked by `RunOutput`); a
    /// symlink is followed and a FIFO or device is written through (`OutputDestination`).
    package init(path: String, flag: String = "--events", outputFolder: String? = nil) throws {
        self.path = path
        self.flag = flag
        let destination: OutputDestination
        do { destination = try OutputDestination.resolve(path) } catch {
            throw BenchFailure.output("\(flag) \(path): \(error.reason)")
        }
        guard case .replace(let real) = destination else { return }
        var isDirectory: ObjCBool = false
        let dir = URL(fileURLWithPath: real).deletingLastPathComponent().path
        if let outputFolder,
            URL(fileURLWithPath: outputFolder).standardizedFileURL.path == URL(fileURLWithPath: dir).standardizedFileURL.path
        {
            return
        }
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchFailure.output("\(flag) \(path): folder \(dir) does not exist")
        }
        guard access(dir, W_OK) == 0 else { throw BenchFailure.output("\(flag) \(path): folder \(dir) is not writable") }
    }

    package func write(_ records: [TimelineRecord], runID: String, workload: String, factorNames: [String] = []) throws {
        let stamped = records.map { r in
            var copy = r
            copy.runID = runID
            copy.workload = workload
            return copy
        }
        do { try AtomicFile.write(TimelineRecord.csv(stamped, factorNames: factorNames), to: path) } catch {
            throw BenchFailure.output(error.description)
        }
    }

    /// Writes a Perfetto trace, whole (staged, then renamed).
    package func write(_ trace: PerfettoTrace) throws {
        do { try AtomicFile.write(Data(trace.encoded()), to: path) } catch { throw BenchFailure.output(error.description) }
    }
}
