/// One thing a variant did that a user of it could see, at the virtual nanosecond it happened:
/// the unit a differential run compares, event by event.
///
/// `kind` says what happened (`publish`, `start`, `hit`, …) and `detail` everything that
/// identifies it (rows, a block's id, a key); two events agree when both are equal and their
/// times are within the run's `--time-tolerance-ns`. Each workload documents its own log.
public struct ObservedEvent: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Virtual nanoseconds since the start of the case (a workload without time uses the
    /// operation's position, and says so in its documentation).
    public var atNs: Int64
    /// What happened.
    public var kind: String
    /// What identifies it beyond its kind (empty when nothing does).
    public var detail: String

    /// An event of `kind` at `atNs`.
    public init(atNs: Int64, kind: String, detail: String = "") {
        self.atNs = atNs
        self.kind = kind
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case atNs = "at_ns"
        case kind, detail
    }

    /// `kind detail @ at_ns`, the form the stdout table prints.
    public var description: String { detail.isEmpty ? "\(kind) @ \(atNs) ns" : "\(kind) \(detail) @ \(atNs) ns" }

    /// Whether `other` is the same event, its time within `tolerance` nanoseconds of this one's.
    public func agrees(with other: ObservedEvent, toleranceNs tolerance: Int64) -> Bool {
        kind == other.kind && detail == other.detail && (atNs - other.atNs).magnitude <= UInt64(max(0, tolerance))
    }
}

/// Where two logs first part: the position, and each side's event there (nil: that log ended).
public struct LogDifference: Hashable, Sendable, Codable {
    /// The first position at which the logs disagree.
    public var index: Int
    /// The earlier of the two events' times (or the one event's, where a log ended).
    public var atNs: Int64
    /// Variant A's event there, nil when A's log ended first.
    public var a: ObservedEvent?
    /// Variant B's event there, nil when B's log ended first.
    public var b: ObservedEvent?

    enum CodingKeys: String, CodingKey {
        case index
        case atNs = "at_ns"
        case a, b
    }

    /// The first difference between `a` and `b`, nil when they agree event by event (each time
    /// within `toleranceNs`).
    public static func first(_ a: [ObservedEvent], _ b: [ObservedEvent], toleranceNs: Int64) -> LogDifference? {
        for i in 0..<max(a.count, b.count) {
            let ea = i < a.count ? a[i] : nil
            let eb = i < b.count ? b[i] : nil
            if let ea, let eb, ea.agrees(with: eb, toleranceNs: toleranceNs) { continue }
            let at = [ea?.atNs, eb?.atNs].compactMap { $0 }.min() ?? 0
            return LogDifference(index: i, atNs: at, a: ea, b: eb)
        }
        return nil
    }

    /// Encodes a missing side as JSON null rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(atNs, forKey: .atNs)
        try c.encode(a, forKey: .a)
        try c.encode(b, forKey: .b)
    }
}
