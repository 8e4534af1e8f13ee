import ArgumentParser
import Foundation
import Measurement
import Records
import Simulation

/// The entry point every `bench-*` uses: parse, run, and turn any failure into one line.
///
/// ArgumentParser's own error output is several lines with a usage dump; in a CI log the one line
/// that matters gets lost. Here every error is `<tool>: error: <what and where>` on stderr with
/// a sysexits code, and `--help` still prints the full help.
package enum BenchMain {
    /// - Parameter usageExitCode: the exit code for a bad flag (64, EX_USAGE, unless the tool's
    ///   own contract says otherwise, like bench-gate's 2).
    /// - Parameters:
    ///   - arguments: what to parse (default: the process's arguments after the executable).
    ///   - toolName: the name errors start with (default: the command's name).
    package static func run<Command: ParsableCommand>(
        _ type: Command.Type,
        usageExitCode: Int32 = 64,
        arguments: [String]? = nil,
        toolName: String? = nil
    ) -> Never {
        let tool = toolName ?? Command.configuration.commandName ?? "bench"
        // What a SIGKILLed run of any tool left in the temporary directory (ItemFolders): every
        // executable passes here, so the next run of any of them sweeps it.
        ItemFolders.sweepStale()
        do {
            var command = try Command.parseAsRoot(arguments)
            try command.run()
            exit(0)
        } catch let code as ExitCode {
            // A verdict, not an error (bench-gate's 1 = regression): the output already said it.
            exit(code.rawValue)
        } catch let failure as BenchFailure {
            fail(tool, failure.message, failure.exitCode == 64 ? usageExitCode : failure.exitCode)
        } catch let failure as AtomicFile.WriteError {
            // An output that failed while the run streamed into it (a full disk, a closed FIFO).
            fail(tool, failure.description, BenchFailure.output(failure.description).exitCode)
        } catch {
            let code = Command.exitCode(for: error)
            if code == .success {
                print(Command.fullMessage(for: error))
                exit(0)
            }
            var message = Command.message(for: error)
            message = message.split(separator: "\n").first.map(String.init) ?? message
            if message.hasPrefix("Error: ") { message.removeFirst(7) }
            message = negativeValueMessage(message, arguments: arguments ?? Array(CommandLine.arguments.dropFirst())) ?? message
            let hint = code == .validationFailure ? " (see --help)" : ""
            fail(tool, message + hint, code == .validationFailure ? usageExitCode : code.rawValue)
        }
    }

    /// ArgumentParser reads `--seeds -1` as the flag `--seeds` followed by an unknown flag `-1`,
    /// and says "Missing value for '--seeds <K>'", which sends the user looking for a value they
    /// did give. Where the word after the flag is a negative number, the message says that instead.
    package static func negativeValueMessage(_ message: String, arguments: [String]) -> String? {
        guard message.hasPrefix("Missing value for '"),
            let flag = message.dropFirst("Missing value for '".count).split(whereSeparator: { $0 == " " || $0 == "'" }).first
        else { return nil }
        guard let at = arguments.firstIndex(of: String(flag)), at + 1 < arguments.count else { return nil }
        let value = arguments[at + 1]
        guard value.hasPrefix("-"), Double(value) != nil else { return nil }
        return "\(flag) got \(value): negative values are not accepted"
    }

    static func fail(_ tool: String, _ message: String, _ code: Int32) -> Never {
        FileHandle.standardError.write(Data("\(tool): error: \(errorLine(message))\n".utf8))
        exit(code == 0 ? 1 : code)
    }

    /// The longest error message printed, in characters: a message quoting a file must not echo
    /// a megabyte of it into a CI log. Long enough for the suite's own longest messages (a failed
    /// item's label and reason, e.g. a `--check-determinism` difference with both values), which
    /// must reach the reader whole.
    package static let maximumErrorCharacters = 500

    /// `message` as one safe line: newlines become spaces, other control characters are escaped
    /// (`\u{1B}`: no terminal escape sequence from a file reaches the terminal), and anything past
    /// `maximumErrorCharacters` is cut, ending in "…".
    package static func errorLine(_ message: String) -> String {
        SafeText.oneLine(message, limit: maximumErrorCharacters, lineBreaks: .spaces)
    }

    /// A loud banner when timing code runs from a debug build: its numbers mean little. `--quiet`
    /// silences it like every other stderr message; the run's JSON notes still say so.
    package static func warnIfDebug(_ what: String, quiet: Bool) {
        guard BuildInfo.isDebug, !quiet else { return }
        let bar = String(repeating: "!", count: 72)
        FileHandle.standardError.write(
            Data(
                """
                \(bar)
                !! WARNING: \(what) from a DEBUG build.
                !! Real-time numbers from debug builds are meaningless; use `swift run -c release`.
                \(bar)

                """.utf8
            )
        )
    }
}
