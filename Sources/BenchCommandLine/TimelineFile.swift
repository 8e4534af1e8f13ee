import Foundation
import Measurement

/// The `--events` (or `--perfetto`) file: checked before the run (so a bad path fails in a second,
/// not after the matrix) and written through `AtomicFile` (atomically where it is a file):
/// `--events` after the run, `--perfetto` streamed while it runs and put in place at its end.
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
