import Dispatch
import Synchronization
import Timelines
import XCTest

@testable import Timekeeping

/// `ClockTrace`: the tracks shown are those of a `clock error` sample at every client event and
/// on both sides of every schedule change (the trace before it was thinned to save memory), in time order, with the
/// samples that repeat the value before them left out.
final class ClockTraceTests: XCTestCase {
    /// The trace as it was built before: the client's events, the `clock` instants, and a
    /// `clock error` sample at every distinct time ≥ 0; then in time order (stable), as the
    /// encoder sorted it.
    func reference(_ client: [TraceEvent], _ scenario: SkewScenario, _ schedule: ClockSchedule, _ source: ClockKind) -> [TraceEvent] {
        var out = client
        var times: [Int64] = [0]
        for e in client {
            times.append(e.startNanoseconds)
            if e.kind == .slice { times.append(e.startNanoseconds + e.durationNanoseconds) }
        }
        for e in scenario.events {
            let at = ClockSchedule.ns(e.at), end = ClockSchedule.ns(e.end)
            switch e.kind {
            case .step: out.append(.instant("step", on: "clock", at: at, value: e.value))
            case .slew: out += [.instant("slew", on: "clock", at: at, value: e.value), .instant("slew end", on: "clock", at: end)]
            case .drift:
                out.append(.instant("drift", on: "clock", at: at, value: e.value))
                if e.duration > 0 { out.append(.instant("drift end", on: "clock", at: end)) }
            case .suspend:
                out += [.instant("suspend", on: "clock", at: at, value: e.duration), .instant("resume", on: "clock", at: end)]
            }
            times += [at - 1, at, end - 1, end]
        }
        let origin = schedule.reading(source, at: 0)
        for t in Set(times).sorted() where t >= 0 {
            let error = schedule.reading(source, at: t) &- origin &- t
            out.append(.counter("clock error", unit: "ms", at: t, value: Double(error) / 1e6))
        }
        return out.enumerated().sorted { ($0.element.startNanoseconds, $0.offset) < ($1.element.startNanoseconds, $1.offset) }.map(
            \.element
        )
    }

    func isError(_ e: TraceEvent) -> Bool { e.track == "clock error" }

    /// Whether `samples` draws the step function `every` draws: each of `every`'s values is the
    /// value of the last of `samples` at or before its time, and `samples` are some of `every`.
    func drawSameSteps(_ samples: [TraceEvent], _ every: [TraceEvent]) -> Bool {
        var k = -1
        for e in every {
            while k + 1 < samples.count, samples[k + 1].startNanoseconds <= e.startNanoseconds { k += 1 }
            guard k >= 0, samples[k].value == e.value else { return false }
        }
        let all = Set(every.map { "\($0.startNanoseconds) \($0.value!)" })
        return samples.allSatisfy { all.contains("\($0.startNanoseconds) \($0.value!)") }
    }

    /// Checks `ClockTrace.events(client…)` against `reference`: the same events but for the
    /// repeated samples, in the same order, and the counter's steps the same. Returns how many
    /// samples it left out.
    @discardableResult
    func check(_ client: [TraceEvent], _ scenario: SkewScenario, _ source: ClockKind, _ label: String) -> Int {
        let schedule = ClockSchedule(scenario: scenario)
        let made = ClockTrace.events(client, scenario: scenario, schedule: schedule, source: source)
        let old = reference(client, scenario, schedule, source)
        XCTAssertTrue(zip(made, made.dropFirst()).allSatisfy { $0.startNanoseconds <= $1.startNanoseconds }, "\(label): in time order")
        XCTAssertEqual(made.filter { !isError($0) }, old.filter { !isError($0) }, "\(label): all but the counter, in order")
        let samples = made.filter(isError), every = old.filter(isError)
        XCTAssertEqual(samples.first?.startNanoseconds, 0, label)
        XCTAssertEqual(samples.first?.value, 0, label)
        XCTAssertTrue(zip(samples, samples.dropFirst()).allSatisfy { $0.value != $1.value }, "\(label): each sample a change")
        XCTAssertTrue(drawSameSteps(samples, every), "\(label): the counter's steps")
        // Where an event and samples share a time, the sample comes after the event, as before.
        let positions = Dictionary(made.enumerated().filter { isError($0.element) }.map { ($0.element.startNanoseconds, $0.offset) }) {
            a,
            _ in a
        }
        for (k, e) in made.enumerated() where !isError(e) {
            if let p = positions[e.startNanoseconds] { XCTAssertLessThan(k, p, "\(label): sample after the events of its time") }
        }
        return every.count - samples.count
    }

    /// A hand-made client timeline out of order, with ties, overlapping slices and slice ends
    /// that fall on schedule changes: the same tracks as before, for every source.
    func testHandMadeTimelineOutOfOrder() {
        let scenario = SkewScenario(
            name: "mixed",
            summary: "step, slew, suspend, drift",
            events: [
                SkewEvent(at: 2, kind: .step, value: -1),
                SkewEvent(at: 4, kind: .slew, value: 500, duration: 3),
                SkewEvent(at: 9, kind: .suspend, duration: 2),
                SkewEvent(at: 12, kind: .drift, value: 100, duration: 4),
            ],
            duration: 20
        )
        let s: Int64 = 1_000_000_000
        let client: [TraceEvent] = [
            .slice("timeout", on: "timeout", start: 3 * s, duration: 6 * s, value: 1),
            .instant("fired late", on: "timeout", at: 9 * s, value: 2),
            .slice("timeout", on: "timeout", start: 1 * s, duration: 1 * s),
            .instant("never fired", on: "timeout", at: 3 * s),
            .instant("request", on: "timeout", at: 0),
            .counter("tokens", unit: "tokens", at: 4 * s, value: 3),
            .slice("timeout", on: "timeout", start: 13 * s, duration: 2 * s),
            .instant("request", on: "timeout", at: 12 * s + 1),
        ]
        var left = 0
        for source in ClockKind.allCases { left += check(client, scenario, source, "mixed \(source.name)") }
        XCTAssertGreaterThan(left, 0, "the clock keeps time before the step: repeated samples left out")
        check([], SkewScenario.named("none")!, .realtime, "empty")
    }

    /// Every client on scenarios with a step, a slew, a drift and a suspend, every source: the
    /// events the runs record are what the trace before showed, less repeated samples.
    func testRecordedRunsShowWhatEverySampleShowed() {
        let runs = ["leap-second", "chrony-slew-83333ppm", "suspend-10min", "drift-10ppm"].flatMap { name in
            let scenario = SkewScenario.named(name)!
            let schedule = ClockSchedule(scenario: scenario)
            return ClientKind.allCases.filter { $0 != .rateLimiter || name == "leap-second" }.flatMap { client in
                ClockKind.allCases.map { source in (name, scenario, schedule, client, source) }
            }
        }
        // The runs side by side (each on one core, 2 s one after another in a debug build).
        let left = Atomic<Int>(0)
        // The helpers read no state of the test case; it is shared only for them.
        nonisolated(unsafe) let test = self
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            let (name, scenario, schedule, client, source) = runs[i]
            let run = SimRunner.record(scenario: scenario, schedule: schedule, client: client, source: source, seed: 2, trace: true)
            let own = run.trace.filter { $0.track != "clock" && !test.isError($0) }
            left.add(test.check(own, scenario, source, "\(name) \(client.name) \(source.name)"), ordering: .relaxed)
        }
        XCTAssertGreaterThan(left.load(ordering: .relaxed), 0)
    }

    /// The control: a counter with a changing sample removed, or a sample moved, draws other steps.
    func testControlADroppedOrMovedSampleIsFound() {
        let scenario = SkewScenario.named("leap-second")!
        let schedule = ClockSchedule(scenario: scenario)
        let run = SimRunner.record(scenario: scenario, schedule: schedule, client: .timeout, source: .realtime, seed: 2, trace: true)
        let own = run.trace.filter { $0.track != "clock" && !isError($0) }
        let every = reference(own, scenario, schedule, .realtime).filter(isError)
        let samples = run.trace.filter(isError)
        XCTAssertTrue(drawSameSteps(samples, every))
        let step = samples.firstIndex { $0.value != 0 }!
        var dropped = samples
        dropped.remove(at: step)
        XCTAssertFalse(drawSameSteps(dropped, every), "a dropped change")
        var moved = samples
        moved[step].startNanoseconds -= 1
        XCTAssertFalse(drawSameSteps(moved, every), "a change a nanosecond early")
    }

    /// The gate's `target interval` counter: sampled at the first publish and where it changed,
    /// so the last sample at or before each publish is that publish's target. On a hand-made
    /// publish list whose target moves, and on a real run (where the sim's target stays at the
    /// fast interval: one sample, the control being a sample per publish).
    func testTargetIntervalIsSampledWhereItChanges() {
        let scenario = SkewScenario.named("drift-10ppm")!
        let schedule = ClockSchedule(scenario: scenario)
        typealias Gate = AdaptiveGateClient<SimulatedClock>
        var gate = Gate(clock: SimulatedClock(.monotonic, schedule: schedule, now: VirtualNow()), parameters: .sim)
        let targets = [0.05, 0.05, 0.1, 0.1, 0.1, 0.05, 0.2]
        gate.published = targets.enumerated().map { (time: Int64($0.offset) * 1_000_000, commits: 1, target: $0.element, early: false) }
        let context = ScoringContext(suspensions: [], horizon: 10_000_000, tolerance: 1_000_000)
        let samples = gate.trace(context).filter { $0.track == "target interval" }
        XCTAssertEqual(samples.map(\.startNanoseconds), [0, 2_000_000, 5_000_000, 6_000_000])
        XCTAssertEqual(samples.map(\.value), [50, 100, 50, 200])
        for (k, p) in gate.published!.enumerated() {
            let last = samples.last { $0.startNanoseconds <= p.time }
            XCTAssertEqual(last?.value, p.target * 1000, "publish \(k)")
        }

        let run = SimRunner.record(scenario: scenario, schedule: schedule, client: .adaptiveGate, source: .monotonic, seed: 1, trace: true)
        let publishes = run.trace.filter { $0.name == "publish" }
        let real = run.trace.filter { $0.track == "target interval" }
        XCTAssertGreaterThan(publishes.count, 1000)
        XCTAssertEqual(real.count, 1, "the sim's target stays at the fast interval: one sample, not one per publish")
        XCTAssertEqual(real.first?.startNanoseconds, publishes.first?.startNanoseconds)
    }
}
