import Foundation
import Measurement
import Records

/// Runs one matrix item in a child process of this very executable, with a watchdog.
///
/// Used for every item that runs a user's variant, in virtual time as in live: code PatternBench
/// does not control may trap or hang anywhere.
///
/// The child is the same binary with the run's own arguments plus `--isolated-item K
/// --isolated-result FILE`: it builds the same workload, runs item K only, writes its sample as
/// JSON and exits. A trap, a crash, a non-zero exit or a hang past `timeout` (the child is then
/// killed) becomes an `IsolatedItemFailure` naming what happened, and the parent goes on with the
/// rest of the matrix. An interrupt (SIGINT, SIGTERM) kills the child at once (`ChildItemStopped`);
/// the child dies with the parent however the parent dies (`ParentWatch`).
package struct ChildItemRunner: Sendable {
    package var timeout: Double
    /// The arguments the run was started with (after the executable), re-used for the child.
    package var arguments: [String]

    package init(timeout: Double, arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.timeout = timeout
        self.arguments = Self.withoutIsolationFlags(arguments)
    }

    /// The path of the running executable (`/proc/self/exe` where it exists: argv[0] may be relative).
    static var executablePath: String {
        if FileManager.default.fileExists(atPath: "/proc/self/exe") { return "/proc/self/exe" }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    package func run<Sample: Decodable>(index: Int, label: String, as: Sample.Type) throws -> Sample {
        let folder = try ItemFolders.make(index: index)
        defer { try? FileManager.default.removeItem(at: folder) }
        let resultURL = folder.appendingPathComponent("sample.json")
        let errURL = folder.appendingPathComponent("stderr.txt")

        let child: IsolatedChildProcess
        do {
            child = try IsolatedChildProcess.spawn(
                executable: Self.executablePath,
                name: CommandLine.arguments.first ?? Self.executablePath,
                arguments: arguments + ["--quiet", "--isolated-item", String(index), "--isolated-result", resultURL.path],
                stderrPath: errURL.path
            )
        } catch {
            throw IsolatedItemFailure(label: label, reason: "could not start a child process: \(error)")
        }
        let ending = child.wait(timeout: timeout, shouldStop: { Interruption.pending != nil })
        switch ending {
        case .stopped: throw ChildItemStopped()
        case .timedOut:
            throw IsolatedItemFailure(label: label, reason: "hung: killed after the --item-timeout of \(CSVWriter.format(timeout)) s")
        case .exited, .signaled: break
        }
        if let data = FileManager.default.contents(atPath: Self.violationPath(ofResult: resultURL.path)),
            let violation = try? Self.decoder.decode(ContractViolation.self, from: data)
        {
            throw IsolatedItemFailure(label: label, reason: violation.description)
        }
        // The line that says what went wrong: a Swift trap's message, else the last line.
        let lines = ((try? String(contentsOf: errURL, encoding: .utf8)) ?? "").split(separator: "\n")
        let telling =
            lines.first { $0.contains("Fatal error") || $0.contains("Precondition failed") || $0.contains("error:") } ?? lines.last
        let lastLine = telling.map { BenchMain.errorLine(String($0)) } ?? ""
        let detail = lastLine.isEmpty ? "" : " (\(lastLine))"
        if case .signaled(let signal) = ending {
            throw IsolatedItemFailure(label: label, reason: "trapped: killed by signal \(signal) (\(Self.signalName(signal)))\(detail)")
        }
        if case .exited(let status) = ending, status != 0 {
            throw IsolatedItemFailure(label: label, reason: "failed: exit status \(status)\(detail)")
        }
        guard let data = FileManager.default.contents(atPath: resultURL.path) else {
            throw IsolatedItemFailure(label: label, reason: "failed: the child wrote no result")
        }
        do { return try Self.decoder.decode(Sample.self, from: data) } catch {
            throw IsolatedItemFailure(label: label, reason: "failed: the child's result does not decode: \(error)")
        }
    }

    /// The child's side: writes `sample` for the parent (whole, then renamed).
    package static func write<Sample: Encodable>(_ sample: Sample, to path: String) throws {
        let data = try encoder.encode(sample)
        try AtomicFile.write(data, to: path)
    }

    /// Where a child writes the `ContractViolation` its item ended with, beside its result.
    static func violationPath(ofResult path: String) -> String { path + ".contract-violation" }

    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return e
    }

    static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return d
    }

    static func withoutIsolationFlags(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var skip = false
        for a in arguments {
            if skip {
                skip = false
                continue
            }
            if a == "--isolated-item" || a == "--isolated-result" {
                skip = true
                continue
            }
            if a.hasPrefix("--isolated-item=") || a.hasPrefix("--isolated-result=") { continue }
            out.append(a)
        }
        return out
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL, a Swift trap"
        case SIGTRAP: "SIGTRAP, a Swift trap"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGKILL: "SIGKILL"
        case SIGFPE: "SIGFPE"
        default: "signal \(signal)"
        }
    }
}

/// An isolated item whose child was killed because the run was interrupted: not a failure of
/// the item, which simply did not finish.
package struct ChildItemStopped: Error, Sendable {}

/// An item that ran in a child process and did not come back with a sample.
package struct IsolatedItemFailure: Error, CustomStringConvertible, Sendable {
    package var label: String
    package var reason: String
    package var description: String { "\(label): \(reason)" }
}
