/// A failure the user can act on, with the exit code it maps to.
///
/// It lives in the shared layer so that a pattern module can say *why* a matrix cannot be built
/// (an unknown scenario, a bad trace line) without depending on the command line.
///
/// Exit codes follow sysexits.h so that scripts can tell a bad flag from a bad file from a full
/// disk: 64 usage, 65 bad input data, 66 missing input, 69 missing system package, 73/74 output.
public struct BenchFailure: Error, CustomStringConvertible {
    public var message: String
    public var exitCode: Int32

    public var description: String { message }

    public init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    public static func usage(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 64) }
    public static func input(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 65) }
    public static func missingInput(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 66) }
    public static func unavailable(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 69) }
    public static func output(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 73) }
    public static func runtime(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 70) }
}
