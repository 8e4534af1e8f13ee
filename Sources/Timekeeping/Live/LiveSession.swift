import CClockLoops
import Dispatch
import Foundation
import Measurement
import Records

/// A client fed in real time: its workload is due on CLOCK_MONOTONIC (which libfaketime is told
/// to leave alone, so it is the reference), its clock is a real one.
protocol LivePollable: AnyObject {
    var clientKind: ClientKind { get }
    var source: ClockKind { get }
    func poll(trueTime: Int64)
    func observations(_ context: ScoringContext) -> [Observation]
    /// The first broken rule of `TimingClientContract`, if the client broke one.
    var violation: ContractViolation? { get }
}

final class LiveClientRunner<Client: TimingClient>: LivePollable where Client.Clock == SystemClock {
    var client: Client
    let clock: SystemClock
    let workload: [Timed<Client.Event>]
    var index = 0
    /// Wake-ups in a row that left the client's request as it was, and the first broken rule.
    private var stalled = 0
    private(set) var violation: ContractViolation?

    init(_ type: Client.Type, source: ClockKind, plan: WorkloadPlan) {
        clock = SystemClock(source)
        client = Client(clock: clock, parameters: plan.parameters)
        workload = Client.workload(plan)
    }

    var clientKind: ClientKind { Client.kind }
    var source: ClockKind { clock.kind }

    /// Same order as the simulation: a due wake first, then the due events (stamped with the time
    /// they were actually handled), then any wake they made due.
    func poll(trueTime t: Int64) {
        if isWakeDue(t) { wake(t) }
        while index < workload.count, workload[index].time <= t {
            client.handle(workload[index].event, trueTime: t)
            index += 1
        }
        if isWakeDue(t) { wake(t) }
    }

    /// Wakes the client and checks that it answered (`TimingClientContract`): the check sits
    /// beside the call, one comparison, and the run goes on as it would have.
    func wake(_ t: Int64) {
        let before = (client.wakeDeadline, client.wakeAtTrueTime)
        client.wake(trueTime: t)
        stalled = (client.wakeDeadline, client.wakeAtTrueTime) == before ? stalled + 1 : 0
        if stalled > TimingClientContract.liveStallLimit, violation == nil {
            violation = TimingClientContract.answersItsWakes.violated(
                at:
                    "\(Client.kind.name) on \(clock.kind.name), true time \(CSVWriter.format(Double(t) / 1e9)) s: woken \(stalled) times in a row without moving its request"
            )
        }
    }

    /// The client's clock has reached its deadline, or true time the instant it asked for.
    func isWakeDue(_ t: Int64) -> Bool {
        if let d = client.wakeDeadline, clock.now() >= d { return true }
        if let due = client.wakeAtTrueTime, t >= due { return true }
        return false
    }

    func observations(_ context: ScoringContext) -> [Observation] { client.observations(context) }
}

/// The child side of live mode: runs every (client, source) pair at once on a 1 ms libdispatch
/// timer while the wall clock is moved under it through libfaketime's timestamp file.
public enum LiveSession {
    public static func run(_ plan: LivePlan) -> LiveResult {
        let mono = pb_clock_monotonic()
        let real = pb_clock_realtime()
        let duration = ClockSchedule.ns(plan.duration)
        let workload = WorkloadPlan(windows: [0..<plan.workEnd], seed: plan.seed, parameters: plan.parameters)
        var runners: [any LivePollable] = []
        for client in plan.clients {
            for source in plan.sources {
                switch client {
                case .durationMeter: runners.append(LiveClientRunner(DurationMeterClient<SystemClock>.self, source: source, plan: workload))
                case .timeout: runners.append(LiveClientRunner(TimeoutClient<SystemClock>.self, source: source, plan: workload))
                case .rateLimiter: runners.append(LiveClientRunner(RateLimiterClient<SystemClock>.self, source: source, plan: workload))
                case .debounceSignal:
                    runners.append(LiveClientRunner(LastOnlyDebounceClient<SystemClock>.self, source: source, plan: workload))
                case .debounceArticle:
                    runners.append(LiveClientRunner(TrailingDebounceClient<SystemClock>.self, source: source, plan: workload))
                case .ttlCache: runners.append(LiveClientRunner(TTLCacheClient<SystemClock>.self, source: source, plan: workload))
                case .callDuration: runners.append(LiveClientRunner(CallDurationClient<SystemClock>.self, source: source, plan: workload))
                case .adaptiveGate: runners.append(LiveClientRunner(AdaptiveGateClient<SystemClock>.self, source: source, plan: workload))
                }
            }
        }
        let changes = FaketimeControl.changes(for: plan.events)
        let schedule = ClockSchedule(events: plan.events)
        FaketimeControl.write("+0", to: plan.timestampFile)

        let state = LoopState(runners: runners, changes: changes)
        let start = Int64(pb_clock_read_ns(mono))
        let offset0 = WallOffsetReading.settled(mono: mono, real: real).offsetNs
        let queue = DispatchQueue(label: "bench-clock.live")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let done = DispatchSemaphore(value: 0)
        timer.setEventHandler {
            let t = Int64(pb_clock_read_ns(mono)) - start
            state.polls += 1
            if state.lastPoll > 0 { state.maxGap = max(state.maxGap, t - state.lastPoll) }
            state.lastPoll = t
            while state.nextChange < state.changes.count, ClockSchedule.ns(state.changes[state.nextChange].at) <= t {
                FaketimeControl.write(state.changes[state.nextChange].line, to: plan.timestampFile)
                state.nextChange += 1
            }
            // Check the harness itself: does the process see the wall offset the scenario asks for?
            // Skipped within 20 ms of a change, where the file and the poll race.
            let seconds = Double(t) / 1e9
            // A reading the scheduler split (`WallOffsetReading`) is not a reading of the offset.
            if !state.changes.contains(where: { abs($0.at - seconds) < 0.02 }),
                let reading = WallOffsetReading.read(mono: mono, real: real)
            {
                let seen = Double(reading.offsetNs - offset0) / 1e9
                let expected = FaketimeControl.expectedOffset(schedule, at: Double(reading.monotonicNs - start) / 1e9)
                state.maxOffsetError = max(state.maxOffsetError, abs(seen - expected))
            }
            for r in state.runners { r.poll(trueTime: t) }
            if t >= duration, !state.finished {
                state.finished = true
                state.end = t
                timer.cancel()
                done.signal()
            }
        }
        timer.schedule(deadline: .now(), repeating: .milliseconds(1), leeway: .microseconds(200))
        timer.resume()
        done.wait()
        FaketimeControl.write("+0", to: plan.timestampFile)

        let context = ScoringContext(suspensions: [], horizon: state.end, tolerance: ClockSchedule.ns(plan.parameters.toleranceSeconds))
        let runs = state.runners.map { r in
            LiveResult.Run(
                client: r.clientKind,
                source: r.source,
                metrics: r.observations(context).map { .init(metric: $0.metric, value: $0.value, unit: $0.unit) }
            )
        }
        let readCosts =
            plan.readCostRepetitions > 0
            ? ReadCost.measure(sources: plan.sources, iterations: plan.readCostIterations, repetitions: plan.readCostRepetitions) : []
        return LiveResult(
            runs: runs,
            violation: state.runners.lazy.compactMap(\.violation).first,
            readCosts: readCosts,
            wallOffsetErrorMs: state.maxOffsetError * 1e3,
            shimLoaded: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "patternbench_timerfd_shim_loaded") != nil,
            polls: state.polls,
            maxPollGapMs: Double(state.maxGap) / 1e6
        )
    }

    /// Everything the timer handler touches. Only the serial queue `bench-clock.live` uses it
    /// while the timer runs, and the main thread reads it after the semaphore: no lock needed.
    final class LoopState: @unchecked Sendable {
        let runners: [any LivePollable]
        let changes: [FaketimeControl.Change]
        var nextChange = 0
        var polls = 0
        var lastPoll: Int64 = 0
        var maxGap: Int64 = 0
        var maxOffsetError = 0.0
        var finished = false
        var end: Int64 = 0

        init(runners: [any LivePollable], changes: [FaketimeControl.Change]) {
            self.runners = runners
            self.changes = changes
        }
    }
}
