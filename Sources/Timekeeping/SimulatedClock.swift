/// The current true time of a simulation, shared by the driver (which moves it) and the simulated
/// clocks (which read it). A class so that every clock of one run sees the same instant; a run is
/// single-threaded, so it is deliberately not `Sendable`.
public final class VirtualNow {
    public var trueTime: Int64 = 0
    public init() {}
}

/// One clock of the simulated clock set, read at the driver's current true time.
public struct SimulatedClock: ClockSource {
    public let kind: ClockKind
    let schedule: ClockSchedule
    let virtualNow: VirtualNow

    public init(_ kind: ClockKind, schedule: ClockSchedule, now: VirtualNow) {
        self.kind = kind
        self.schedule = schedule
        self.virtualNow = now
    }

    public func now() -> Int64 { schedule.reading(kind, at: virtualNow.trueTime) }

    /// On `date`, the `Date` that `now()` is the nanoseconds of: the same CLOCK_REALTIME reading
    /// through `DateQuantization.timeInterval`, before it is rounded to nanoseconds again.
    public func stamp() -> ClockStamp {
        guard kind == .date else { return .nanoseconds(now()) }
        return .date(DateQuantization.timeInterval(realtimeNanoseconds: schedule.reading(.realtime, at: virtualNow.trueTime)))
    }
}
