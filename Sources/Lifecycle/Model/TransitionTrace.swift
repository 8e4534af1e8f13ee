import Foundation
import Measurement
import Simulation

/// A `--trace` file of transitions: `<time_ms> <transition>` per line, `#` comments and blank
/// lines ignored, times non-decreasing, each `launch` beginning a session (a process lifetime).
///
/// Validated line by line: a bad line is one error naming the file and the line (exit 65), never
/// a trap.
package enum TransitionTrace {
    /// The longest trace accepted (lines), so that a wrong file fails fast.
    static let maxLines = 2_000_000
    /// The latest time accepted (ms): about 31 years.
    static let maxTimeMs = 1e12

    /// A file's transitions, each session's events from its `launch`: read and checked once per
    /// run, given each item's random draws by `scripts(profile:seed:)`.
    package struct Recorded: Sendable {
        var sessions: [[SessionScript.Event]]

        /// The sessions with the draws (save durations, kill instants) of `seed`.
        package func scripts(profile: AppProfile, seed: UInt64) -> [SessionScript] {
            let shape = LifecycleScenario.everyday.shape
            return sessions.enumerated().map { i, events in
                SessionScript(events: events, draws: SessionGenerator.draws(shape: shape, profile: profile, seed: seed, index: i))
            }
        }
    }

    package static func read(path: String) throws(BenchFailure) -> Recorded {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchFailure.missingInput("--trace \(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BenchFailure.input("\(path): not UTF-8 text")
        }
        return try parse(text, name: path)
    }

    /// `parse(_:name:)`'s sessions with the draws of `seed`.
    package static func parse(_ text: String, name: String, profile: AppProfile, seed: UInt64) throws(BenchFailure) -> [SessionScript] {
        try parse(text, name: name).scripts(profile: profile, seed: seed)
    }

    package static func parse(_ text: String, name: String) throws(BenchFailure) -> Recorded {
        var sessions: [[SessionScript.Event]] = []
        var sessionStart: Int64 = 0
        var last: Int64 = -1
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if lineNumber > maxLines { throw BenchFailure.input("\(name):\(lineNumber): more than \(maxLines) lines") }
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            func fail(_ message: String) -> BenchFailure { BenchFailure.input("\(name):\(lineNumber): \(message)") }
            guard fields.count == 2 else { throw fail("expected '<time_ms> <transition>', got \(fields.count) fields") }
            guard let ms = Double(fields[0]), ms.isFinite, ms >= 0, ms <= maxTimeMs else {
                throw fail("time '\(fields[0].prefix(40))' is not a number of ms between 0 and \(Int64(maxTimeMs))")
            }
            guard let transition = Transition(rawValue: String(fields[1])) else {
                throw fail(
                    "unknown transition '\(fields[1].prefix(40))' (known: \(Transition.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            let ns = Int64((ms * 1e6).rounded())
            if ns < last { throw fail("time \(fields[0]) ms is before the previous line's") }
            last = ns
            if transition == .launch {
                sessions.append([])
                sessionStart = ns
            } else if sessions.isEmpty {
                throw fail("the first transition must be 'launch', got '\(transition.rawValue)'")
            }
            sessions[sessions.count - 1].append(.init(time: SimInstant(nanoseconds: ns - sessionStart), transition: transition))
        }
        guard !sessions.isEmpty else { throw BenchFailure.input("\(name): no transitions (a trace starts with a 'launch' line)") }
        return Recorded(sessions: sessions)
    }
}
