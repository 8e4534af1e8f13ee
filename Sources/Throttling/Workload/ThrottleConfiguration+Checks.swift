import Measurement

extension ThrottleConfiguration {
    /// The checks that need the chosen scenarios: a flag with no effect on one of them, or a rate
    /// that leaves one empty, is an error rather than a number recorded in the JSON for nothing.
    /// `scenarios` are the resolved scenarios before `duration`/`rate` are applied.
    func checkEffect(on scenarios: [ThrottleScenario], quick: Bool) throws {
        if let duration, rate == nil {
            // A sync storm with no arrivals after it stops at its own end: a longer --duration
            // changes nothing (a shorter one cuts the storm, which is an effect).
            let unaffected = scenarios.filter { s in
                if case let .syncStorm(_, _, _, storm, after) = s.arrivals { return after == 0 && duration >= storm }
                return false
            }
            if let first = unaffected.first, case let .syncStorm(_, _, _, storm, _) = first.arrivals {
                throw BenchFailure.usage(
                    "--duration \(duration) has no effect on \(unaffected.map(\.name).joined(separator: ", ")): a sync storm stops after "
                        + "\(storm) s; choose other scenarios with --scenario, a --duration below \(storm) s, or add --rate"
                )
            }
        }
        if let rate, duration == nil {
            for s in scenarios {
                let seconds = quick ? s.duration.seconds * 0.3 : s.duration.seconds
                guard rate * seconds >= 1 else {
                    throw BenchFailure.usage(
                        "--rate \(rate) over \(s.name)'s \(seconds) s expects fewer than one commit: the run would be empty"
                    )
                }
            }
        }
    }
}
