import Simulation
import TraceImport

extension LaunchPlan {
    /// A launch plan whose blocks are a recorded launch's signposted intervals, one block each.
    ///
    /// The mapping, so that Signal's coordinator and its alternatives schedule the app's real
    /// blocks: the kind is the name's first component when it is `will`, `did`, `ui` or `polite`
    /// (`did.contacts`, `polite:prefetch`), otherwise `did` on the main thread and `polite` off
    /// it; a main-thread interval was registered during launch (`.launch`: Signal registers its
    /// blocks in AppSetup, before they run); an off-main interval was registered from its
    /// background thread when it began (`.offMain(start)`); its duration is the block's work,
    /// and the estimate the frame-aware scheduler reads is that duration (learned exactly). The
    /// services and the taps and scrolls stay the profile's, drawn from `seed`: a signpost does
    /// not say which globals a block touches.
    package static func fromTrace(_ trace: IntervalEvents, profile: LaunchProfile, seed: UInt64) -> LaunchPlan {
        var plan = generate(profile, seed: seed)
        let raw = trace.intervals.map { interval -> ReadinessBlock in
            let duration = SimDuration(nanoseconds: interval.duration)
            return ReadinessBlock(
                id: 0,
                kind: blockKind(interval),
                mainAppOnly: false,
                registration: interval.mainThread ? .launch : .offMain(SimInstant(nanoseconds: interval.start)),
                duration: duration,
                estimate: duration,
                services: [],
                intentPriority: 0
            )
        }
        // Registration order, as `generate` makes it: launch ones first, then by time (stable).
        func key(_ b: ReadinessBlock) -> Int64 {
            if case .offMain(let t) = b.registration { return t.nanoseconds }
            return -1
        }
        let ordered = raw.enumerated().sorted { a, b in
            key(a.element) != key(b.element) ? key(a.element) < key(b.element) : a.offset < b.offset
        }
        plan.blocks = ordered.enumerated().map { i, pair in
            var block = pair.element
            block.id = i
            return block
        }
        return plan
    }

    /// The kind a signposted interval's name declares, or its thread implies.
    static func blockKind(_ interval: IntervalEvent) -> BlockKind {
        let first = interval.name.split(whereSeparator: { $0 == "." || $0 == ":" }).first.map(String.init) ?? ""
        if let kind = BlockKind(rawValue: first) { return kind }
        return interval.mainThread ? .did : .polite
    }
}
