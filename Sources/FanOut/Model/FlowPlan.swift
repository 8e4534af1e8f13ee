import Simulation

/// One flow's draws, made before any strategy runs it: when it starts, how many movies it
/// references, and every call's outcome by slot. All variants of an item see the same draws
/// (common random numbers), so their differences are the strategies', not the dice's.
struct FlowPlan: Sendable {
    var index: Int
    var arrival: SimInstant
    var movies: Int
    var seed: UInt64
    var services: ServiceProfile

    /// The calls of each stage, in declaration order.
    func stages(batched: Bool) -> [[CallSpec]] {
        let first = [CallSpec(kind: .profile, slot: 0), CallSpec(kind: .tickets, slot: 1), CallSpec(kind: .favourites, slot: 2)]
        let second =
            batched
            ? [CallSpec(kind: .movies, slot: 3)]
            : (0..<movies).map { CallSpec(kind: .movie, slot: 3 + $0) }
        return [first, second]
    }

    /// The outcome of call `slot` (copy 0) or its hedge (copy 1), from a stream of its own.
    func outcome(_ call: CallSpec, copy: Int) -> CallOutcome {
        var rng = SeededGenerator.stream((UInt64(index) << 20) | (UInt64(call.slot) << 1) | UInt64(copy), of: seed)
        return services.draw(call.kind, movies: movies, rng: &rng)
    }

    /// `count` flows with open-loop exponential gaps of mean `meanGap`.
    static func plans(count: Int, scenario: FanOutScenario, seed: UInt64) -> [FlowPlan] {
        var arrivals = SeededGenerator.stream(0xA11_1BA1, of: seed)
        var t = SimInstant.zero
        var plans: [FlowPlan] = []
        for i in 0..<count {
            let gap = -Double(scenario.meanGap.nanoseconds) * DeterministicMath.log(arrivals.nextOpenUnit())
            t = t + SimDuration(nanoseconds: Int64(gap))
            var rng = SeededGenerator.stream((UInt64(i) << 20) | 0xF_FFFF, of: seed)
            let tickets = Int(rng.nextInt(in: 1...4))
            let favourites = Int(rng.nextInt(in: 1...6))
            plans.append(FlowPlan(index: i, arrival: t, movies: tickets + favourites, seed: seed, services: scenario.services))
        }
        return plans
    }
}

/// One call of a stage.
struct CallSpec: Sendable, Hashable {
    var kind: ServiceKind
    /// Its position in the flow: the draw's stream.
    var slot: Int
}
