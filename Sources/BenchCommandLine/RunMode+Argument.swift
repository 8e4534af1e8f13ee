import ArgumentParser
import Measurement

/// Every tool's `--mode sim|live` parses into the one `RunMode` its configuration takes.
extension RunMode: ExpressibleByArgument {}
