import Measurement

/// bench-atomics' own settings as the command line gave them, before the matrix is resolved.
package struct AtomicsConfiguration: Sendable {
    /// `--threads`, `--cs-work`, `--gap-work` as typed (each value may be a comma list); empty = default.
    package var threads: [String] = []
    package var csWork: [String] = []
    package var gapWork: [String] = []
    /// Seconds; nil = the default (shorter with `--quick`).
    package var duration: Double?
    package var warmup: Double?
    package var probeDuration: Double = 0.2
    package var full = false
    package var pin = false
    package var allocator: AllocatorChoice = .system

    package init() {}
}
