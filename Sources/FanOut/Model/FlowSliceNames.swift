import Timelines

/// The names of the traced slices that carry a flow's number (`tap flow 12`, `movies hedge flow
/// 12 succeeded`), each made once and given the flow's number per slice (`NumberedName`).
///
/// A traced default run names about 380,000 slices so; one string each (built, written by the
/// encoder, freed) was the largest single part of what tracing added to the run.
enum FlowSliceNames {
    /// A tap that runs the flow off main: `tap flow N`.
    static let tap = NumberedName("tap flow ")
    /// A tap that blocks main for the whole flow: `flow N (tap, wait, ui-update)`.
    static let tapWaitUpdate = NumberedName("flow ", " (tap, wait, ui-update)")
    /// The update main applies when an off-main flow's result is ready: `ui-update flow N`.
    static let uiUpdate = NumberedName("ui-update flow ")

    /// A call copy's name, `<kind>[ hedge] flow N <how it ended>`, made on first use: a run
    /// names a few hundred thousand calls with a few dozen names.
    struct Calls {
        private var made = [NumberedName?](repeating: nil, count: Self.kinds * 2 * Self.ends)

        mutating func name(_ kind: ServiceKind, hedge: Bool, _ how: FlowExecution.CallRecord.End) -> NumberedName {
            let slot = (kind.ordinal * 2 + (hedge ? 1 : 0)) * Self.ends + Self.index(how)
            if let known = made[slot] { return known }
            let name = NumberedName(kind.rawValue + (hedge ? " hedge flow " : " flow "), " " + how.rawValue)
            made[slot] = name
            return name
        }

        private static let kinds = 5
        private static let ends = 5

        private static func index(_ how: FlowExecution.CallRecord.End) -> Int {
            switch how {
            case .succeeded: 0
            case .failed: 1
            case .timedOut: 2
            case .cancelled: 3
            case .lostHedge: 4
            }
        }
    }
}
