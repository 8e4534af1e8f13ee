import Timekeeping

/// The schedule the simulated-clock benchmarks read under.
public enum ClockFixtures {
    /// A slew, a step and a suspension over 800 s of true time: a read looks its segment up and
    /// does the reading's arithmetic, as sim mode does per read.
    public static let skewSchedule = ClockSchedule(events: [
        .slew(at: 20, ppm: -10_000, for: 100), .step(at: 130, by: -60), .suspend(at: 150, for: 600),
    ])
}
