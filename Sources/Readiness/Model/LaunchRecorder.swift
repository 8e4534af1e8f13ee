import Records
import Simulation
import Timelines

/// Everything a launch measures, written on the main executor only (the live driver's jobs and
/// the sim driver are single-threaded with respect to it; see `LiveMainExecutor`).
package final class LaunchRecorder: @unchecked Sendable {
    package var appReady: SimInstant?
    package var uiReady: SimInstant?
    package var readyTurnStart: SimInstant?
    package var readyTurnEnd: SimInstant?
    /// Start and end of every block run, in execution order.
    package var runs: [(block: ReadinessBlock, start: SimInstant, end: SimInstant, onMain: Bool)] = []
    package var inputLatencies: [SimDuration] = []
    package var missedFrames = 0
    package var renderedFrames = 0
    package var maxTurn = SimDuration.zero
    package var wastedSlots = 0
    package var firstFrameShown = false
    package var screenBuilt = false
    /// What the sim driver puts on the timeline as it goes (frames, inputs, missed vsyncs, the
    /// main queue's depth); nil unless the run records its timeline, so a default run does no more.
    package var trace: [TraceEvent]?

    /// Blocks that ran on a background thread (the article's class after ready), recorded from
    /// that thread: the only state of the recorder another thread writes, hence its own lock.
    private let offMain = LockedState<[(block: ReadinessBlock, start: SimInstant, end: SimInstant)]>([])

    package init() {}

    package func recordOffMain(_ block: ReadinessBlock, start: SimInstant, end: SimInstant) {
        offMain.withLock { $0.append((block, start, end)) }
    }

    /// Every block run, main-thread ones in execution order, then the off-main ones.
    package var allRuns: [(block: ReadinessBlock, start: SimInstant, end: SimInstant, onMain: Bool)] {
        runs + offMain.withLock { $0 }.map { ($0.block, $0.start, $0.end, false) }
    }

    /// The workload's metrics, with their units (see docs/bench-readiness.md for definitions).
    package func observations(plan: LaunchPlan) -> [Observation] {
        func ms(_ d: SimDuration) -> Double { d.milliseconds }
        let origin = SimInstant.zero
        var out: [Observation] = []
        let ready = appReady ?? origin
        out.append(Observation("t_app_ready_ms", ms(ready - origin), "ms"))
        out.append(Observation("t_ui_ready_ms", ms((uiReady ?? ready) - origin), "ms"))
        if let s = readyTurnStart, let e = readyTurnEnd { out.append(Observation("ready_turn_ms", ms(e - s), "ms")) }
        let polite = allRuns.filter { $0.block.kind == .polite }
        // The launch backlog: polite blocks registered before the ready turn (later registrations
        // arrive over seconds and would make every design's drain the same last arrival).
        let turnStart = readyTurnStart ?? ready
        let backlog = polite.filter { run in
            switch run.block.registration {
            case .launch: true
            case .main(let t), .offMain(let t): t < turnStart
            }
        }
        let lastPolite = backlog.map(\.end).max() ?? turnStart
        out.append(Observation("polite_drain_ms", ms(max(.zero, lastPolite - turnStart)), "ms"))
        out.append(Observation("main_max_stall_ms", ms(maxTurn), "ms"))
        if !inputLatencies.isEmpty {
            let sorted = inputLatencies.sorted()
            out.append(Observation("input_latency_p50_ms", ms(Self.nearestRank(sorted, 50)), "ms"))
            out.append(Observation("input_latency_p99_ms", ms(Self.nearestRank(sorted, 99)), "ms"))
        }
        out.append(Observation("missed_frames", Double(missedFrames), "count"))
        out.append(Observation("overtakes", Double(overtakes), "count"))
        let uiTime = uiReady ?? ready
        out.append(Observation("polite_before_ui", Double(polite.filter { $0.start < uiTime }.count), "count"))
        out.append(Observation("wasted_slots", Double(wastedSlots), "count"))
        return out
    }

    /// Polite blocks that started while a polite block registered before them had not started.
    package var overtakes: Int {
        var started = Set<Int>()
        var count = 0
        let politeIDs = allRuns.filter { $0.block.kind == .polite }.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element.block.id)
        let all = Set(politeIDs)
        for id in politeIDs {
            if all.contains(where: { $0 < id && !started.contains($0) }) { count += 1 }
            started.insert(id)
        }
        return count
    }

    /// The nearest-rank percentile of sorted values (exact and deterministic; no interpolation).
    package static func nearestRank(_ sorted: [SimDuration], _ p: Int) -> SimDuration {
        guard !sorted.isEmpty else { return .zero }
        let rank = (p * sorted.count + 99) / 100
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}
