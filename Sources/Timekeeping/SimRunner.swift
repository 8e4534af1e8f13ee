import Measurement
import Records
import Timelines

/// Runs clients against the simulated clock set in virtual time: deterministic, and hours of
/// skew cost no more than seconds because timer expiries are solved, not polled.
public enum SimRunner {
    /// How long after the last workload event pending timers may still fire: a deadline that has
    /// not fired a week later counts as never.
    public static let horizonAfterWork: Int64 = 7 * 86_400 * 1_000_000_000

    /// One (scenario, client, source) run.
    public static func run(
        scenario: SkewScenario,
        schedule: ClockSchedule,
        client: ClientKind,
        source: ClockKind,
        seed: UInt64,
        parameters: ClientParameters = .sim
    ) -> [Observation] {
        record(scenario: scenario, schedule: schedule, client: client, source: source, seed: seed, parameters: parameters, trace: false)
            .observations
    }

    /// One (scenario, client, source) run that also returns its timeline when `trace` is set:
    /// what the client did on its track, the skew schedule on the `clock` track and the client's
    /// clock error. With `trace` unset the run is exactly `run`'s and the timeline empty.
    public static func record(
        scenario: SkewScenario,
        schedule: ClockSchedule,
        client: ClientKind,
        source: ClockKind,
        seed: UInt64,
        parameters: ClientParameters = .sim,
        trace: Bool
    ) -> (observations: [Observation], trace: [TraceEvent], violation: ContractViolation?) {
        let plan = WorkloadPlan(
            windows: schedule.awakeWindows(scenario.activeWindows),
            seed: seed,
            parameters: parameters,
            suspensions: schedule.suspensions
        )
        switch client {
        case .durationMeter: return simulate(DurationMeterClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .timeout: return simulate(TimeoutClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .rateLimiter: return simulate(RateLimiterClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .debounceSignal: return simulate(LastOnlyDebounceClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .debounceArticle: return simulate(TrailingDebounceClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .ttlCache: return simulate(TTLCacheClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .callDuration: return simulate(CallDurationClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        case .adaptiveGate: return simulate(AdaptiveGateClient<SimulatedClock>.self, plan, schedule, source, scenario, trace)
        }
    }

    static func simulate<Client: TimingClient>(
        _ type: Client.Type,
        _ plan: WorkloadPlan,
        _ schedule: ClockSchedule,
        _ source: ClockKind,
        _ scenario: SkewScenario,
        _ trace: Bool
    ) -> (observations: [Observation], trace: [TraceEvent], violation: ContractViolation?) where Client.Clock == SimulatedClock {
        let now = VirtualNow()
        var client = Client(clock: SimulatedClock(source, schedule: schedule, now: now), parameters: plan.parameters)
        if trace { client.recordTrace() }
        let workload = Client.workload(plan)
        let horizon = (workload.last?.time ?? 0) + horizonAfterWork
        let violation = drive(&client, workload: workload, schedule: schedule, source: source, now: now, horizon: horizon)
        let context = ScoringContext(
            suspensions: schedule.suspensions,
            horizon: horizon,
            tolerance: nanoseconds(plan.parameters.toleranceSeconds)
        )
        guard trace else { return (client.observations(context), [], violation) }
        let observations = client.observations(context)
        return (observations, ClockTrace.events(client.trace(context), scenario: scenario, schedule: schedule, source: source), violation)
    }

    /// Feeds the workload in true-time order and wakes the client at the first true time its clock
    /// reaches the deadline it asked for, or at the true time it asked for (`wakeAtTrueTime`),
    /// whichever comes first (deferred to the resume when that is inside a suspend), never past
    /// the horizon. A wake due at the same instant as an event goes first. Returns the broken rule
    /// of `TimingClientContract` that stopped the run, if one did.
    @discardableResult
    static func drive<Client: TimingClient>(
        _ client: inout Client,
        workload: [Timed<Client.Event>],
        schedule: ClockSchedule,
        source: ClockKind,
        now: VirtualNow,
        horizon: Int64
    ) -> ContractViolation? {
        var index = 0
        var t: Int64 = 0
        var stalled = 0
        while true {
            let nextEvent = index < workload.count ? workload[index].time : Int64.max
            var wakeAt = Int64.max
            if let deadline = client.wakeDeadline {
                let limit = min(nextEvent, horizon)
                if let c = schedule.crossing(source, reaching: deadline, from: t, limit: limit) {
                    wakeAt = schedule.resume(c)
                }
            }
            if let due = client.wakeAtTrueTime, due <= horizon {
                wakeAt = min(wakeAt, schedule.resume(max(due, t)))
            }
            if wakeAt <= nextEvent, wakeAt != .max {
                // A wake that changes nothing would be asked for again at once: step past it.
                let before = client.wakeDeadline
                let beforeTrue = client.wakeAtTrueTime
                now.trueTime = wakeAt
                client.wake(trueTime: wakeAt)
                if client.wakeDeadline == before, client.wakeAtTrueTime == beforeTrue {
                    stalled += 1
                    t = wakeAt + (stalled > 64 ? 1_000_000 : 1)
                } else {
                    stalled = 0
                    t = wakeAt
                }
                if stalled > TimingClientContract.stallLimit {
                    return TimingClientContract.answersItsWakes.violated(
                        at:
                            "true time \(CSVWriter.format(Double(wakeAt) / 1e9)) s: woken \(stalled) times in a row without moving its request"
                    )
                }
                continue
            }
            guard index < workload.count else { return nil }
            let e = workload[index]
            index += 1
            t = max(t, e.time)
            now.trueTime = e.time
            client.handle(e.event, trueTime: e.time)
        }
    }
}
