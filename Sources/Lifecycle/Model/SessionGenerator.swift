import Simulation

/// Draws sessions of transitions for a scenario from a seed: session k of seed s is the same on
/// every machine and for every variant (each session has its own generator stream).
package enum SessionGenerator {
    package static func sessions(
        _ count: Int,
        shape: LifecycleScenario.Shape,
        profile: AppProfile,
        seed: UInt64
    ) -> [SessionScript] {
        (0..<count).map { session(shape: shape, profile: profile, seed: seed, index: $0) }
    }

    static func session(shape: LifecycleScenario.Shape, profile: AppProfile, seed: UInt64, index: Int) -> SessionScript {
        var rng = SeededGenerator.stream(UInt64(index) &* 2 &+ 1, of: seed)
        var events: [SessionScript.Event] = []
        var t: Int64 = 0
        func add(_ transition: Transition, _ time: Int64) {
            events.append(.init(time: SimInstant(nanoseconds: time), transition: transition))
        }
        func phase(_ transition: Transition) {
            add(transition, t)
            if shape.repeatPhase > 0, rng.nextUnit() < shape.repeatPhase { add(transition, t + 50_000_000) }
        }
        func seconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }

        add(.launch, 0)
        let visits = Int(rng.nextInt(in: Int64(shape.visits.lowerBound)...Int64(shape.visits.upperBound)))
        t = seconds(0.5)
        phase(.active)
        for visit in 0..<visits {
            let foreground = seconds(Swift.min(shape.foregroundCapSeconds, rng.exponential(mean: shape.foregroundMeanSeconds)))
            let end = t + foreground
            var e = t + seconds(rng.exponential(mean: 1 / shape.editsPerSecond))
            var flip = shape.flipsPerSecond > 0 ? t + seconds(rng.exponential(mean: 1 / shape.flipsPerSecond)) : Int64.max
            while min(e, flip) < end {
                if e <= flip {
                    add(.edit, e)
                    e += seconds(rng.exponential(mean: 1 / shape.editsPerSecond))
                } else {
                    add(.inactive, flip)
                    add(.active, flip + 300_000_000)
                    flip += 300_000_000 + seconds(rng.exponential(mean: 1 / shape.flipsPerSecond))
                }
            }
            t = end
            phase(.inactive)
            t += 200_000_000
            phase(.background)
            let background = seconds(Swift.min(shape.backgroundCapSeconds, rng.exponential(mean: shape.backgroundMeanSeconds)))
            let bgEnd = t + background
            var r = t + seconds(rng.exponential(mean: shape.refreshEverySeconds))
            var p = t + seconds(rng.exponential(mean: shape.pressureEverySeconds))
            while min(r, p) < bgEnd {
                if r <= p {
                    add(.refresh, r)
                    r += seconds(rng.exponential(mean: shape.refreshEverySeconds))
                } else {
                    add(.pressure, p)
                    p += seconds(rng.exponential(mean: shape.pressureEverySeconds))
                }
            }
            t = bgEnd
            let last = visit == visits - 1
            if last || rng.nextUnit() < shape.silentKill {
                add(.kill, t)
                break
            }
            add(.foreground, t)
            t += 100_000_000
            phase(.active)
        }
        events.sort { $0.time < $1.time }
        let migration: SimDuration? =
            shape.migration > 0 && rng.nextUnit() < shape.migration
            ? .seconds(
                shape.migrationSeconds.lowerBound + rng.nextUnit() * (shape.migrationSeconds.upperBound - shape.migrationSeconds.lowerBound)
            )
            : nil
        return SessionScript(events: events, migration: migration, draws: draws(shape: shape, profile: profile, seed: seed, index: index))
    }

    /// The session's cost draws, from a stream of their own (so that the transitions above can
    /// change without moving a cost).
    static func draws(shape: LifecycleScenario.Shape, profile: AppProfile, seed: UInt64, index: Int) -> CostDraws {
        var rng = SeededGenerator.stream(UInt64(index) &* 2 &+ 2, of: seed)
        let saveFactor = (0..<32).map { _ -> Double in
            guard shape.saveStall > 0, rng.nextUnit() < shape.saveStall else { return 1 }
            return shape.stallFactor.lowerBound + rng.nextUnit() * (shape.stallFactor.upperBound - shape.stallFactor.lowerBound)
        }
        func pareto(_ min: SimDuration, _ alpha: Double, _ cap: SimDuration) -> Int64 {
            Int64(rng.boundedPareto(minimum: Double(min.nanoseconds), alpha: alpha, cap: Double(cap.nanoseconds)).rounded())
        }
        let initItems = (0..<(profile.criticalItems + profile.deferrableItems)).map { _ in
            pareto(profile.initMin, profile.initAlpha, profile.initCap)
        }
        let observers = (0..<64).map { _ in pareto(profile.observerMin, 1.5, profile.observerCap) }
        let syncWork = (0..<16).map { _ in pareto(profile.syncMin, profile.syncAlpha, profile.syncCap) }
        let attemptFails = (0..<48).map { _ in rng.nextUnit() < profile.syncFailure }
        let attemptFraction = (0..<48).map { _ in rng.nextUnit() }
        return CostDraws(
            saveFactor: saveFactor,
            initItems: initItems,
            observers: observers,
            syncWork: syncWork,
            attemptFails: attemptFails,
            attemptFraction: attemptFraction
        )
    }
}
