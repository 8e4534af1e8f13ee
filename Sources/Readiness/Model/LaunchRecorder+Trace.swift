import Simulation
import Timelines

extension LaunchRecorder {
    /// The launch as a timeline, built after the run from what the recorder kept (so recording it
    /// changes nothing the launch measures): every block run as a slice on `main` (or on
    /// `background` for the article's off-main class), named for its kind — `will-become-ready`,
    /// `did-become-ready`, `ui-ready`, `polite` (one turn of the polite chain) — with the block's
    /// id as its value and ` (no-op)` added where a main-app-only block returned at once; `app
    /// ready` and `UI ready` as instants; the `pending blocks` counter (registered, not yet
    /// started: launch registrations count from 0; blocks that never run are left out); plus what
    /// the sim driver recorded on the way (`trace`: frames, inputs, missed vsyncs, the main
    /// queue's depth).
    package func timeline(plan: LaunchPlan) -> [TraceEvent] {
        var events = trace ?? []
        for run in allRuns {
            let noOp = run.block.mainAppOnly && !plan.context.isMainApp
            events.append(
                .slice(
                    Self.sliceNames[run.block.kind.ordinal * 2 + (noOp ? 1 : 0)],
                    on: run.onMain ? "main" : "background",
                    start: run.start.nanoseconds,
                    duration: (run.end - run.start).nanoseconds,
                    value: Double(run.block.id)
                )
            )
        }
        if let appReady { events.append(.instant("app ready", on: "main", at: appReady.nanoseconds)) }
        if let uiReady { events.append(.instant("UI ready", on: "main", at: uiReady.nanoseconds)) }
        // +1 at each registration, -1 at each start; a start never precedes its registration. A
        // block that never runs (frame-aware drops main-app-only ones in an extension) is left out.
        let ran = Set(allRuns.map(\.block.id))
        var changes: [(time: Int64, delta: Int)] = plan.blocks.filter { ran.contains($0.id) }.map { block in
            switch block.registration {
            case .launch: (0, 1)
            case .main(let t), .offMain(let t): (t.nanoseconds, 1)
            }
        }
        changes += allRuns.map { ($0.start.nanoseconds, -1) }
        changes.sort { ($0.time, $0.delta) < ($1.time, $1.delta) }
        var pending = 0
        var index = 0
        while index < changes.count {
            let time = changes[index].time
            while index < changes.count, changes[index].time == time {
                pending += changes[index].delta
                index += 1
            }
            events.append(.counter("pending blocks", unit: "blocks", at: time, value: Double(max(0, pending))))
        }
        return events
    }

    /// A block kind's slice name: Signal's readiness phase it runs in.
    static func sliceName(_ kind: BlockKind) -> String {
        switch kind {
        case .will: "will-become-ready"
        case .did: "did-become-ready"
        case .ui: "ui-ready"
        case .polite: "polite"
        }
    }

    /// Each kind's slice name and its no-op form, made once (`TraceName`), by
    /// `kind.ordinal * 2 + (noOp ? 1 : 0)` (the kinds sorted by it, not by declaration).
    static let sliceNames: [TraceName] = BlockKind.allCases.sorted { $0.ordinal < $1.ordinal }.flatMap { kind in
        [TraceName(sliceName(kind)), TraceName(sliceName(kind) + " (no-op)")]
    }
}
