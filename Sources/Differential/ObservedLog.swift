import Measurement
import Timelines

/// How the virtual-time workloads turn a traced run into the log a differential run compares:
/// the run's timeline (`TraceEvent`s, as `--perfetto` draws them) read as observed events, then
/// the run's outcome and any broken contract at its end.
///
/// One shape for every workload whose simulation records a timeline, so that a slice, an instant
/// and an outcome read the same in every workload's log (docs/differential.md documents each).
public enum ObservedLog {
    /// The timeline's slices (`detail`: track and duration) and instants (`detail`: track) as
    /// observed events, in the order recorded. Counters are left out: they restate what the
    /// slices and instants did, and the outcome line sums them up.
    public static func events(of trace: [TraceEvent]) -> [ObservedEvent] {
        trace.compactMap { e in
            switch e.kind {
            case .slice: ObservedEvent(atNs: e.startNanoseconds, kind: e.name, detail: "\(e.track) \(e.durationNanoseconds) ns")
            case .instant: ObservedEvent(atNs: e.startNanoseconds, kind: e.name, detail: e.track)
            default: nil
            }
        }
    }

    /// `events` in time order, events at one time in the order they were recorded (a stable
    /// sort: tracks are recorded apart, so the recorded order is not the time order).
    public static func inTimeOrder(_ events: [ObservedEvent]) -> [ObservedEvent] {
        events.enumerated().sorted { ($0.element.atNs, $0.offset) < ($1.element.atNs, $1.offset) }.map(\.element)
    }

    /// `log` closed by the run's `outcome` (its tallies, one line) and, when the run broke its
    /// role's contract, the rule it broke, both at the time of the log's last event.
    public static func closed(_ log: [ObservedEvent], outcome: String, violation: ContractViolation?) -> [ObservedEvent] {
        let end = log.last?.atNs ?? 0
        var closed = log
        closed.append(ObservedEvent(atNs: end, kind: "outcome", detail: outcome))
        if let violation { closed.append(ObservedEvent(atNs: end, kind: "violation", detail: violation.rule.statement)) }
        return closed
    }
}
