/// One signpost as every trace format gives it: a point event, or one end of an interval, with
/// the process and thread it was emitted on. The format readers produce these; `CommitEvents`
/// and `IntervalEvents` turn them into what the workloads consume.
public struct SignpostEvent: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// `os_signpost(.event, …)`, a Perfetto instant.
        case instant
        /// `os_signpost(.begin, …)`, a Perfetto slice begin.
        case begin
        /// `os_signpost(.end, …)`, a Perfetto slice end (its name may be empty).
        case end
    }

    public var phase: Phase
    public var name: String
    /// The process's name, without its pid.
    public var process: String
    /// Whether it was emitted on the process's main thread.
    public var mainThread: Bool
    /// Nanoseconds on the trace's clock (not yet shifted to the first commit).
    public var time: Int64
    /// `rows=N` in the message (xctrace) or a `rows` debug annotation (Perfetto); nil when absent.
    public var rows: Int64?
    /// What pairs an interval's begin with its end: the signpost identifier (xctrace) or the
    /// track (Perfetto).
    public var key: String

    public init(phase: Phase, name: String, process: String, mainThread: Bool, time: Int64, rows: Int64?, key: String) {
        self.phase = phase
        self.name = name
        self.process = process
        self.mainThread = mainThread
        self.time = time
        self.rows = rows
        self.key = key
    }
}

/// One commit of an imported trace: nanoseconds since the first commit, and its rows (1 when the
/// signpost carried none).
public struct CommitEvent: Sendable, Equatable {
    public var time: Int64
    public var rows: Int32

    public init(time: Int64, rows: Int32) {
        self.time = time
        self.rows = rows
    }
}

/// One signposted interval of an imported trace: its name, start (nanoseconds since the first
/// interval's start), duration, and whether it ran on the main thread.
public struct IntervalEvent: Sendable, Equatable {
    public var name: String
    public var start: Int64
    public var duration: Int64
    public var mainThread: Bool

    public init(name: String, start: Int64, duration: Int64, mainThread: Bool) {
        self.name = name
        self.start = start
        self.duration = duration
        self.mainThread = mainThread
    }
}
