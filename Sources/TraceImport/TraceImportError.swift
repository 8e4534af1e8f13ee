/// Why an imported trace cannot be replayed: the file and, in words a user can act on, the fault.
///
/// One line, so that the command-line tools print it as their only output and exit 65: a trace
/// that is half read would change the workload without anyone noticing.
public struct TraceImportError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
