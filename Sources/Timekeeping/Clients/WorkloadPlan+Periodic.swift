extension WorkloadPlan {
    /// Instants `every` apart in `window`: the first `offset` after its start, the last before its
    /// end (none when the offset reaches past it). Clients that act on a period (a tick, a timer,
    /// a timeout armed again and again) run it only while the process is awake.
    static func periodic(in window: Range<Int64>, every: Int64, offset: Int64) -> [Int64] {
        var instants: [Int64] = []
        var t = window.lowerBound + offset
        while t < window.upperBound {
            instants.append(t)
            t += every
        }
        return instants
    }

    /// `periodic(in:every:offset:)` over every window, in order.
    func periodic(every: Int64, offset: Int64) -> [Int64] {
        windows.flatMap { Self.periodic(in: $0, every: every, offset: offset) }
    }
}
