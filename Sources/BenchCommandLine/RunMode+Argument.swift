import ArgumentParser
import Records

/// Every tool's `--mode sim|live` parses into the one `RunMode` its configuration takes.
extension RunMode: ExpressibleByArgument {}
