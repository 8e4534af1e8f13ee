/// A failure the user can act on, with the exit code it maps to.
///
/// Exit codes follow sysexits.h so that scripts can tell a bad flag from a bad file from a full
/// disk: 64 usage, 65 bad input data, 66 missing input, 69 missing system package, 73/74 output.
package struct BenchFailure: Error, CustomStringConvertible {
    package var message: String
    package var exitCode: Int32

    package var description: String { message }

    package init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    package static func usage(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 64) }
    package static func input(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 65) }
    package static func missingInput(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 66) }
    package static func unavailable(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 69) }
    package static func output(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 73) }
    package static func runtime(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 70) }
}
