import BenchCommandLine
import Foundation
import Measurement
import Throttling

/// Writes `--events`: one CSV row per applied update, for timeline plots.
struct TimelineWriter {
    static let header = "run_id,scenario,variant,seed,time_ms,rows,reset,cost_ms,frame_lateness_ms"
    let path: String
    let runID: String
    var text = ""

    init(path: String, runID: String) {
        self.path = path
        self.runID = runID
        text = Self.header + "\n"
    }

    /// Fails early if the file's folder does not exist or cannot be written.
    func prepare() throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BenchFailure.output("--events \(path): folder \(dir) does not exist")
        }
        guard access(dir, W_OK) == 0 else { throw BenchFailure.output("--events \(path): folder \(dir) is not writable") }
    }

    mutating func add(_ updates: [UpdateRecord], scenario: String, variant: String, seed: UInt64) {
        for u in updates {
            let lateness = u.frameLateness.map { CSVWriter.format($0.milliseconds) } ?? ""
            text += "\(runID),\(CSVWriter.escape(scenario)),\(variant),\(seed),\(CSVWriter.format(u.time.seconds * 1000)),"
            text += "\(u.rows),\(u.reset ? 1 : 0),\(CSVWriter.format(u.cost.milliseconds)),\(lateness)\n"
        }
    }

    func write() throws {
        do { try AtomicFile.write(text, to: path) } catch { throw BenchFailure.output(error.description) }
    }
}
