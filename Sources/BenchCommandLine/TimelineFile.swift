import Foundation
import Measurement
import Records
import Timelines

/// The `--events` (or `--perfetto`) file: checked before the run (so a bad path fails in a second,
/// not after the matrix) and written through `AtomicFile` (atomically where it is a file): both
/// streamed while the run goes, item by item in matrix order, and put in place at its end, so
/// memory holds one item's rows, not the run's.
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

    /// Opens the `--events` CSV, header written, for rows appended item by item (staged beside the
    /// path, put in place by `commit(_:)`).
    package func eventsStream(runID: String, workload: String, factorNames: [String], capacity: Int = 1 << 20) throws -> EventsStream {
        do {
            let file = try SpoolFile.staged(to: path, capacity: capacity)
            try file.append(TimelineRecord.csvHeader(factorNames: factorNames) + "\n")
            return EventsStream(file: file, runID: runID, workload: workload, factorNames: factorNames)
        } catch { throw BenchFailure.output(error.description) }
    }

    /// Puts a finished events stream in place.
    package func commit(_ stream: EventsStream) throws {
        do { try stream.file.finish().commit() } catch { throw BenchFailure.output(error.description) }
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

/// The `--events` rows on their way to disk: each finished item's rows, stamped with the run.
package struct EventsStream {
    let file: SpoolFile
    let runID: String
    let workload: String
    let factorNames: [String]

    package func add(_ records: [TimelineRecord]) throws {
        var stamped = records
        for i in stamped.indices {
            stamped[i].runID = runID
            stamped[i].workload = workload
        }
        do { try file.append(TimelineRecord.csvRows(stamped, factorNames: factorNames)) } catch {
            throw BenchFailure.output(error.description)
        }
    }
}
