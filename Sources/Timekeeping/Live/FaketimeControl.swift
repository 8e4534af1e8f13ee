import Foundation
import Records

/// Writes the libfaketime timestamp file that moves this process's wall clock at run time.
///
/// With `FAKETIME_NO_CACHE=1` libfaketime re-reads the file on every time call, and with
/// `FAKETIME_XRESET=1` a rate change starts from the current fake time. The file holds the total
/// offset from the real wall clock in seconds and, during a slew, the rate: `-1.000000000 x1.0005`.
/// Each write goes to a temporary name and is renamed, so a reader never sees half a line.
package struct FaketimeControl {
    package struct Change: Sendable {
        /// Seconds since the start of the live run, on CLOCK_MONOTONIC.
        package var at: Double
        package var offset: Double
        package var rate: Double
        package var line: String {
            let sign = offset < 0 ? "-" : "+"
            let text = "\(sign)\(String(format: "%.9f", abs(offset)))"
            return rate == 1 ? text : text + " x\(String(format: "%.9f", rate))"
        }
    }

    /// The file contents over time for steps and slews, from the same schedule sim mode uses.
    package static func changes(for events: [SkewEvent]) -> [Change] {
        let schedule = ClockSchedule(events: events)
        var points: [(Double, Double)] = []  // (time, rate after)
        for e in events {
            switch e.kind {
            case .step: points.append((e.at, .nan))
            case .slew:
                points.append((e.at, 1 + e.value * 1e-6))
                points.append((e.end, 1))
            case .suspend, .drift: continue
            }
        }
        points.sort { $0.0 < $1.0 }
        var rate = 1.0
        return points.map { at, newRate in
            if !newRate.isNaN { rate = newRate }
            let t = ClockSchedule.ns(at)
            // The offset just after the change: wall minus true time, relative to the start.
            let wall = schedule.reading(.realtime, at: t) - ClockSchedule.realtimeEpoch
            return Change(at: at, offset: Double(wall - t) / 1e9, rate: rate)
        }
    }

    /// The wall-clock offset (seconds) the scenario asks for at `seconds` into the run.
    package static func expectedOffset(_ schedule: ClockSchedule, at seconds: Double) -> Double {
        let t = ClockSchedule.ns(seconds)
        return Double(schedule.reading(.realtime, at: t) - ClockSchedule.realtimeEpoch - t) / 1e9
    }

    /// Replaces the timestamp file libfaketime re-reads on every time call: atomically, so it
    /// never reads half a line, and without a flush, since only the live child reads it.
    package static func write(_ text: String, to path: String) {
        try? AtomicFile.write(text + "\n", to: path, durable: false)
    }
}
