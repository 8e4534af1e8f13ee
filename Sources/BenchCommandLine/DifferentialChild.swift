import ArgumentParser
import Foundation
import Measurement
import Processes
import Records

/// A differential run that names a user's variant, run in a child process of this executable.
///
/// Why: a measuring run puts every item with a user's variant in a child (`ChildItemRunner`), so
/// that code PatternBench does not control costs its own items only. A differential run has one
/// item — the comparison — and the same rule: the child is this binary with the run's arguments
/// plus `--differential-child`; it writes to this process's stdout (the table), its stderr is kept. An
/// exit (0, 1, 64, …) is passed on as it is; a trap or a hang past `--item-timeout` becomes one
/// line naming the user's variants and what happened, and exit 70. The child dies with the parent.
struct DifferentialChild {
    var timeout: Double
    var arguments = ChildItemRunner.withoutIsolationFlags(Array(CommandLine.arguments.dropFirst()))

    func run(userVariants: [String]) throws -> Int32 {
        let folder = try ItemFolders.make(index: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errPath = folder.appendingPathComponent("stderr.txt").path
        let spawned: SpawnedChild
        do {
            spawned = try SpawnedChild.spawn(
                ChildItemRunner.executablePath,
                arguments: arguments + ["--differential-child"],
                name: CommandLine.arguments.first,
                stdout: .descriptor(STDOUT_FILENO),
                stderr: .file(errPath)
            )
        } catch {
            throw BenchFailure.runtime("--differential: could not start a child process: \(error)")
        }
        let ending = IsolatedChildProcess(child: spawned).wait(timeout: timeout, shouldStop: { Interruption.pending != nil })
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        let who = "the user's variant\(userVariants.count == 1 ? "" : "s") \(userVariants.joined(separator: ", "))"
        switch ending {
        case .exited(let status):
            FileHandle.standardError.write(Data(stderr.utf8))
            return status
        case .signaled(let signal):
            let lines = stderr.split(separator: "\n")
            let telling = lines.first { $0.contains("Fatal error") || $0.contains("Precondition failed") } ?? lines.last
            let detail = telling.map { " (\(BenchMain.errorLine(String($0))))" } ?? ""
            throw BenchFailure.runtime(
                "--differential: \(who) trapped: killed by signal \(signal) (\(ChildItemRunner.signalName(signal)))\(detail); no verdict"
            )
        case .timedOut:
            throw BenchFailure.runtime(
                "--differential: \(who) hung: killed after the --item-timeout of \(CSVWriter.format(timeout)) s; no verdict"
            )
        case .stopped:
            throw ExitCode(130)
        }
    }
}
