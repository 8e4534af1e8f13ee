/// A failure the user can act on, with the exit code it maps to.
///
/// It lives in the shared layer so that a pattern module can say *why* a matrix cannot be built
/// (an unknown scenario, a bad trace line) without depending on the command line.
///
/// Exit codes follow sysexits.h so that scripts can tell a bad flag from a bad file from a full
/// disk: 64 usage, 65 bad input data, 66 missing input, 69 missing system package, 73/74 output.
public struct BenchFailure: Error, CustomStringConvertible {
    /// The one line printed after `<tool>: error: `.
    public var message: String
    /// The process's exit status (a sysexits code).
    public var exitCode: Int32

    public var description: String { message }

    /// A failure with its message and exit status.
    public init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A bad flag, name or value: exit 64 (EX_USAGE).
    public static func usage(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 64) }
    /// Bad input data: exit 65 (EX_DATAERR).
    public static func input(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 65) }
    /// An input file that does not exist: exit 66 (EX_NOINPUT).
    public static func missingInput(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 66) }
    /// Something this host lacks: exit 69 (EX_UNAVAILABLE).
    public static func unavailable(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 69) }
    /// An output that cannot be written: exit 73 (EX_CANTCREAT).
    public static func output(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 73) }
    /// A failure while running (a failed item, a broken invariant): exit 70 (EX_SOFTWARE).
    public static func runtime(_ message: String) -> BenchFailure { BenchFailure(message: message, exitCode: 70) }
}
