import Simulation

/// One concrete launch drawn from a `LaunchProfile` and a seed: every block, service cost and
/// input event. The same plan is run by every variant, so variants differ only in scheduling.
package struct LaunchPlan: Sendable {
    package struct Input: Sendable, Hashable {
        package var time: SimInstant
        package var service: Int
    }

    package var profile: LaunchProfile
    package var seed: UInt64
    /// In registration order: launch registrations first, then by time.
    package var blocks: [ReadinessBlock]
    package var serviceCosts: [SimDuration]
    package var inputs: [Input]

    package var context: ProcessContext { profile.context }

    package static func generate(_ profile: LaunchProfile, seed: UInt64) -> LaunchPlan {
        // Independent streams: changing one count never shifts another's draws.
        var durations = SeededGenerator.stream(1, of: seed)
        var times = SeededGenerator.stream(2, of: seed)
        var picks = SeededGenerator.stream(3, of: seed)
        var arrivals = SeededGenerator.stream(4, of: seed)
        var costs = SeededGenerator.stream(5, of: seed)

        let serviceCosts = (0..<profile.services).map { _ in profile.serviceCost.draw(&costs) }
        let window = profile.registrationWindow.nanoseconds
        func time(from start: Int64) -> SimInstant {
            SimInstant(nanoseconds: times.nextInt(in: start...max(start, window)))
        }

        var raw: [ReadinessBlock] = []
        func add(
            _ kind: BlockKind,
            _ count: Int,
            _ distribution: DurationDistribution,
            offMain: Int = 0,
            later: Int = 0,
            mainAppOnly: Int = 0
        ) {
            for i in 0..<count {
                let registration: ReadinessBlock.Registration
                if i < offMain {
                    registration = .offMain(time(from: 0))
                } else if i < offMain + later {
                    registration = .main(time(from: 500_000_000))
                } else {
                    registration = .launch
                }
                let duration = distribution.draw(&durations)
                // ×/÷2: 2^(2u−1) with u uniform.
                let factor = DeterministicMath.pow(2, 2 * picks.nextUnit() - 1)
                let estimate = SimDuration(nanoseconds: Int64((Double(duration.nanoseconds) * factor).rounded()))
                let services = (0..<profile.servicesPerBlock).map { _ in Int(picks.nextInt(in: 0...Int64(profile.services - 1))) }
                let priority = kind == .polite ? Int(picks.nextInt(in: 0...2)) : 0
                raw.append(
                    ReadinessBlock(
                        id: 0,
                        kind: kind,
                        mainAppOnly: kind == .polite && i >= count - mainAppOnly,
                        registration: registration,
                        duration: duration,
                        estimate: estimate,
                        services: services,
                        intentPriority: priority
                    )
                )
            }
        }
        add(.will, profile.willCount, profile.willDuration)
        add(.did, profile.didCount, profile.didDuration, offMain: profile.didOffMain, later: profile.didLater)
        add(.ui, profile.uiCount, profile.uiDuration)
        add(
            .polite,
            profile.politeCount,
            profile.politeDuration,
            offMain: profile.politeOffMain,
            later: profile.politeLater,
            mainAppOnly: profile.mainAppOnlyPolite
        )

        // Registration order: launch ones in declaration order, then by time (stable).
        func key(_ b: ReadinessBlock) -> Int64 {
            switch b.registration {
            case .launch: -1
            case .main(let t), .offMain(let t): t.nanoseconds
            }
        }
        let ordered = raw.enumerated().sorted { a, b in
            key(a.element) != key(b.element) ? key(a.element) < key(b.element) : a.offset < b.offset
        }
        let blocks = ordered.enumerated().map { i, pair in
            var block = pair.element
            block.id = i
            return block
        }

        var inputs: [Input] = []
        if profile.context.hasUI, profile.inputRate > 0 {
            var t = Double(profile.inputStart.nanoseconds)
            while true {
                t += -DeterministicMath.log(arrivals.nextOpenUnit()) / profile.inputRate * 1e9
                guard t < Double(profile.inputEnd.nanoseconds) else { break }
                let service = Int(arrivals.nextInt(in: 0...Int64(profile.uiServices - 1)))
                inputs.append(Input(time: SimInstant(nanoseconds: Int64(t.rounded())), service: service))
            }
        }
        return LaunchPlan(profile: profile, seed: seed, blocks: blocks, serviceCosts: serviceCosts, inputs: inputs)
    }

    /// Eager construction: every service, in order.
    package var eagerGlobalsCost: SimDuration {
        serviceCosts.reduce(.zero, +)
    }
}
