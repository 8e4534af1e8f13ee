import Foundation
import Records

/// A bench-* run for a Swift Testing test that mostly waits (a live run, a watchdog): made with
/// `--output` a fresh folder, on a thread of its own (`onThread`), so Swift Testing waits it out
/// beside the other waiting tests; the folder is removed once its results document is read.
struct WaitedRun {
    var result: ExecutableRunner.Result
    /// The run's `<workload>.json`; nil when the run wrote none.
    var document: RunDocument?

    /// Runs `tool` with `arguments` and reads `document` (e.g. `throttle.json`) from its folder.
    init(_ tool: String, _ arguments: [String], document name: String, environment: [String: String] = [:]) async throws {
        let folder = try ExecutableRunner.temporaryDirectory(tool)
        defer { try? FileManager.default.removeItem(at: folder) }
        result = try await onThread {
            try ExecutableRunner.run(tool, arguments + ["--output", folder.path], environment: environment)
        }
        let path = folder.appendingPathComponent(name)
        document = FileManager.default.fileExists(atPath: path.path) ? try RunDocument.decode(Data(contentsOf: path)) : nil
    }
}
