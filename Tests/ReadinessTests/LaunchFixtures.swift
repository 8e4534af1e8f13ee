import Simulation

@testable import Readiness

/// Hand-written launches whose timelines a test can state exactly.
enum LaunchFixtures {
    /// A launch in `context` with these blocks (in registration order) and nothing else: no
    /// input, free globals, so every instant is the sum of the blocks' durations and the delays.
    static func plan(
        _ context: ProcessContext,
        _ blocks: [(BlockKind, Int, ReadinessBlock.Registration)],
        mainAppOnly: Set<Int> = [],
        inputs: [LaunchPlan.Input] = []
    ) -> LaunchPlan {
        var profile = LaunchProfile(context: context)
        profile.services = 1
        let list = blocks.enumerated().map { i, b in
            ReadinessBlock(
                id: i,
                kind: b.0,
                mainAppOnly: mainAppOnly.contains(i),
                registration: b.2,
                duration: .milliseconds(b.1),
                estimate: .milliseconds(b.1),
                services: [0],
                intentPriority: 0
            )
        }
        return LaunchPlan(profile: profile, seed: 0, blocks: list, serviceCosts: [.zero], inputs: inputs)
    }

    static func run(_ plan: LaunchPlan, _ variant: ReadinessVariant, globals: GlobalsStrategy = .eager) throws -> LaunchRecorder {
        try SimMainExecutor.run(plan: plan, globals: globals, variant: variant)
    }

    static func ms(_ t: SimInstant) -> Double { t.seconds * 1000 }
}
