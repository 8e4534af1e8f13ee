/// A named list of skew events plus how long the run lasts and when clients are active.
public struct SkewScenario: Hashable, Sendable, Codable {
    public var name: String
    public var summary: String
    public var events: [SkewEvent]
    /// Length of the run in true seconds (clients' pending timers may fire later than this).
    public var duration: Double
    /// When clients generate work: `[start, end)` pairs in true seconds. Suspended stretches are
    /// removed automatically (nothing runs while the machine sleeps).
    public var activeWindows: [ClosedRange<Double>]

    public init(name: String, summary: String, events: [SkewEvent], duration: Double, activeWindows: [ClosedRange<Double>]? = nil) {
        self.name = name
        self.summary = summary
        self.events = events
        self.duration = duration
        self.activeWindows = activeWindows ?? [0...duration]
    }

    /// A scenario read from a `--skew` file: the run lasts until 60 s after the last event ends.
    /// Clients work throughout a run of up to 15 minutes; in a longer one (a file may span a
    /// century) they work in 120 s windows around the first 20 events and at 8 evenly spaced
    /// points, so the work, and the time it takes, stays bounded whatever the file says.
    public static func fromFile(name: String, events: [SkewEvent]) -> SkewScenario {
        let lastEnd = events.map { $0.kind == .drift && $0.duration == 0 ? $0.at : $0.end }.max() ?? 0
        let duration = max(120, lastEnd + 60)
        guard duration > 900 else {
            return SkewScenario(name: name, summary: "read from \(name)", events: events, duration: duration)
        }
        var starts = events.prefix(20).map { max(0, $0.at - 60) }
        starts += (0..<8).map { duration * Double($0) / 8 }
        var windows: [ClosedRange<Double>] = []
        for s in starts.sorted() {
            let w = s...min(duration, s + 120)
            if let last = windows.last, last.upperBound >= w.lowerBound {
                windows[windows.count - 1] = last.lowerBound...max(last.upperBound, w.upperBound)
            } else {
                windows.append(w)
            }
        }
        return SkewScenario(name: name, summary: "read from \(name)", events: events, duration: duration, activeWindows: windows)
    }
}

extension SkewScenario {
    /// One step of the wall clock by `seconds` at `at` (60 s: halfway) into a two-minute run, the
    /// shape of most named scenarios: a leap second, an NTP step, a manual change.
    static func wallClockStep(_ name: String, _ summary: String, by seconds: Double, at: Double = 60) -> SkewScenario {
        SkewScenario(name: name, summary: summary, events: [.step(at: at, by: seconds)], duration: 120)
    }

    /// The named scenarios, in `--list` order.
    public static let catalogue: [SkewScenario] = {
        var all: [SkewScenario] = [
            SkewScenario(name: "none", summary: "no skew: the control", events: [], duration: 120),
            .wallClockStep("leap-second", "an un-smeared positive leap second: the wall clock steps back 1 s", by: -1),
        ]
        for (label, seconds) in [("128ms", 0.128), ("500ms", 0.5)] {
            all.append(
                .wallClockStep("ntp-step-plus-\(label)", "ntpd/chrony steps the wall clock forward \(label)", by: seconds)
            )
            all.append(
                .wallClockStep("ntp-step-minus-\(label)", "ntpd/chrony steps the wall clock back \(label)", by: -seconds)
            )
        }
        all += [
            .wallClockStep("step-plus-1h", "manual change or time-zone bug: wall clock +1 h", by: 3600),
            .wallClockStep("step-minus-1h", "manual change or time-zone bug: wall clock −1 h", by: -3600),
            .wallClockStep("step-minus-1d", "wall clock set back one day", by: -86_400),
            .wallClockStep("step-plus-1y", "wall clock set forward one year (a dead RTC battery fixed by NTP)", by: 365 * 86_400),
            SkewScenario(
                name: "ntpd-slew-500ppm",
                summary: "ntpd slews out a +128 ms offset at its 500 ppm limit (256 s)",
                events: [.slew(at: 30, ppm: 500, for: 256)],
                duration: 320
            ),
            SkewScenario(
                name: "chrony-slew-83333ppm",
                summary: "chrony slews out a −1 s offset at its 83 333 ppm maximum (12 s)",
                events: [.slew(at: 60, ppm: -83_333, for: 12)],
                duration: 120
            ),
        ]
        for ppm in [10.0, 50, 100] {
            let label = String(Int(ppm))
            all.append(
                SkewScenario(
                    name: "drift-\(label)ppm",
                    summary: "the oscillator runs \(label) ppm fast and nothing corrects it: every clock drifts",
                    events: [.drift(ppm: ppm)],
                    duration: 600
                )
            )
        }
        all += [
            SkewScenario(
                name: "ntp-disciplined-50ppm",
                summary: "the oscillator runs 50 ppm slow and NTP corrects it: only CLOCK_MONOTONIC_RAW stays wrong",
                events: [.drift(ppm: -50), .slew(at: 0, ppm: 50.0025, for: 3600)],
                duration: 600
            ),
            SkewScenario(
                name: "leap-smear-24h",
                summary: "Google-style 24 h leap smear: −11.574 ppm for 86 400 s absorbs one leap second",
                events: [.slew(at: 3600, ppm: -11.574, for: 86_400)],
                duration: 93_600,
                activeWindows: stride(from: 0.0, to: 93_600, by: 7200).map { $0...($0 + 120) }
            ),
            SkewScenario(
                name: "leap-smear-100s",
                summary: "the same smear compressed: −10 000 ppm for 100 s absorbs one second",
                events: [.slew(at: 20, ppm: -10_000, for: 100)],
                duration: 160
            ),
            SkewScenario(
                name: "strobe-50ms-500ms",
                summary: "a flapping time source: the wall clock jumps +50 ms then back every 500 ms",
                events: stride(from: 30.0, to: 90, by: 0.5).enumerated().map { i, t in .step(at: t, by: i % 2 == 0 ? 0.05 : -0.05) },
                duration: 120
            ),
            .wallClockStep(
                "step-plus-60s-quarter-timeout",
                "+60 s step a quarter of the way into a pending 30 s timeout (armed at 35 s, step at 42.5 s)",
                by: 60,
                at: 42.5
            ),
            .wallClockStep(
                "step-minus-60s-quarter-timeout",
                "−60 s step a quarter of the way into a pending 30 s timeout (armed at 35 s, step at 42.5 s)",
                by: -60,
                at: 42.5
            ),
            SkewScenario(
                name: "suspend-10min",
                summary: "the laptop lid closes for 10 minutes at 40 s",
                events: [.suspend(at: 40, for: 600)],
                duration: 720
            ),
        ]
        return all
    }()

    public static func named(_ name: String) -> SkewScenario? { catalogue.first { $0.name == name } }
}
