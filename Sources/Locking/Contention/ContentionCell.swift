/// One point of the workload matrix: an operation, a thread count and the two kinds of work.
package struct ContentionCell: Hashable, Sendable {
    package var operation: ContentionOperation
    package var threads: Int
    /// Work inside each critical section.
    package var csWork: WorkAmount
    /// Work between one operation and the next.
    package var gapWork: WorkAmount

    package init(operation: ContentionOperation, threads: Int, csWork: WorkAmount = .none, gapWork: WorkAmount = .none) {
        self.operation = operation
        self.threads = threads
        self.csWork = csWork
        self.gapWork = gapWork
    }

    /// The factor columns of the results, in CSV order. The work columns are numbers with the
    /// unit in the name (nanoseconds), so every tool reads them as numbers; the flags keep their
    /// `50ns`/`1us` syntax.
    package static let factorNames = ["threads", "cs_work_ns", "gap_work_ns"]

    package var factors: [String: String] {
        ["threads": String(threads), "cs_work_ns": Self.column(csWork), "gap_work_ns": Self.column(gapWork)]
    }

    /// A work amount as its column value: whole nanoseconds without a decimal point ("0", "50",
    /// "1000"), a fraction only when there is one ("0.5").
    package static func column(_ amount: WorkAmount) -> String {
        let ns = amount.nanoseconds
        if ns == ns.rounded(), abs(ns) < 1e15 { return String(Int64(ns)) }
        return String(ns)
    }
}

/// How long and how each measurement runs.
package struct ContentionSettings: Sendable, Hashable {
    /// Measured window per repetition, in seconds.
    package var duration: Double
    /// Unmeasured operations at the start of a (cell, variant)'s first repetition, on the same
    /// threads, before its measured window, in seconds (0 for none).
    package var warmup: Double
    /// Pin worker i to CPU i mod `cpuCount`.
    package var pinning: Bool
    package var cpuCount: Int
    /// Co-scheduling probe before each round of repetitions (or before a lone `measure`), in seconds (0 for none).
    package var probeDuration: Double
    /// Operations between two checks of the stop flag.
    package var batch: Int
    /// Sample operations for the timeline (nil: record none, the default).
    package var sampling: LockSampling?

    package init(duration: Double, warmup: Double, pinning: Bool = false, cpuCount: Int = 1, probeDuration: Double = 0.01, batch: Int = 32)
    {
        self.duration = duration
        self.warmup = warmup
        self.pinning = pinning
        self.cpuCount = cpuCount
        self.probeDuration = probeDuration
        self.batch = batch
    }
}
