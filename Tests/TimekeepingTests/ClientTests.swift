import Records
import XCTest

@testable import Timekeeping

/// The clients on hand-made timelines: what each clock makes them do.
final class ClientTests: XCTestCase {
    func metric(_ observations: [Observation], _ name: String) -> Double? {
        observations.first { $0.metric == name }?.value
    }

    func context(_ schedule: ClockSchedule) -> ScoringContext {
        ScoringContext(suspensions: schedule.suspensions, horizon: 1_000_000_000_000_000, tolerance: 1_000_000)
    }

    /// `client` on the named scenario timed by clock `a` and by clock `b` (seed 1): the
    /// side-by-side most of these tests compare.
    func run(_ scenarioName: String, _ client: ClientKind, _ a: ClockKind, _ b: ClockKind) -> ([Observation], [Observation]) {
        let scenario = SkewScenario.named(scenarioName)!
        let schedule = ClockSchedule(scenario: scenario)
        let runs = [a, b].map { SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: $0, seed: 1) }
        return (runs[0], runs[1])
    }

    /// The failure this workload exists to show: a 0.5 s job across a −1 s leap-second step.
    /// Timed with the wall clock it lasts −0.5 s; with every monotonic clock exactly 0.5 s.
    func testLeapSecondMakesWallClockDurationsNegativeAndLeavesMonotonicOnesCorrect() {
        let schedule = ClockSchedule(scenario: SkewScenario.named("leap-second")!)
        for kind in ClockKind.allCases {
            let now = VirtualNow()
            var meter = DurationMeterClient(clock: SimulatedClock(kind, schedule: schedule, now: now), parameters: .sim)
            now.trueTime = 59_900_000_000
            meter.handle(.start(0), trueTime: now.trueTime)
            now.trueTime = 60_400_000_000
            meter.handle(.end(0), trueTime: now.trueTime)
            let o = meter.observations(context(schedule))
            if kind.isWallClock {
                XCTAssertEqual(metric(o, "negative_durations"), 1, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us")!, 1_000_000, accuracy: 1, kind.name)
            } else {
                XCTAssertEqual(metric(o, "negative_durations"), 0, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us"), 0, kind.name)
            }
        }
    }

    /// The same through the whole sim runner: the wall-clock meters are off by the step, the
    /// monotonic ones exact.
    func testLeapSecondThroughTheRunner() {
        let scenario = SkewScenario.named("leap-second")!
        let schedule = ClockSchedule(scenario: scenario)
        for kind in ClockKind.allCases {
            let o = SimRunner.run(scenario: scenario, schedule: schedule, client: .durationMeter, source: kind, seed: 1)
            if kind.isWallClock {
                XCTAssertGreaterThan(metric(o, "max_abs_error_us")!, 999_000, kind.name)
            } else {
                XCTAssertEqual(metric(o, "negative_durations"), 0, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us"), 0, kind.name)
            }
        }
    }

    /// A step a quarter of the way into a 30 s timeout: forward fires it at once (22.5 s early),
    /// backward delays it by the step; monotonic clocks fire on time either way.
    func testQuarterStepTimeouts() {
        for (name, sign) in [("step-plus-60s-quarter-timeout", 1.0), ("step-minus-60s-quarter-timeout", -1.0)] {
            let schedule = ClockSchedule(scenario: SkewScenario.named(name)!)
            for kind in ClockKind.allCases {
                let now = VirtualNow()
                var client = TimeoutClient(clock: SimulatedClock(kind, schedule: schedule, now: now), parameters: .sim)
                now.trueTime = 35_000_000_000
                client.handle(.arm(0), trueTime: now.trueTime)
                let fire = schedule.crossing(kind, reaching: client.wakeDeadline!, from: now.trueTime, limit: .max / 4)!
                now.trueTime = fire
                client.wake(trueTime: fire)
                XCTAssertNil(client.wakeDeadline)
                let o = client.observations(context(schedule))
                if kind.isWallClock {
                    XCTAssertEqual(Double(fire) / 1e9, sign > 0 ? 42.5 : 125, accuracy: 1e-6, "\(name) \(kind.name)")
                    XCTAssertEqual(metric(o, sign > 0 ? "timeouts_early" : "timeouts_late"), 1)
                } else {
                    XCTAssertEqual(fire, 65_000_000_000, "\(name) \(kind.name)")
                    XCTAssertEqual(metric(o, "timeout_error_ms"), 0)
                }
            }
        }
    }

    /// Signal's gate times itself with Date() but compares `abs(now − lastPublish)`: after a −1 h
    /// step the wall clock reads an hour *before* the last publish, and the gate opens at once —
    /// one early publish, never an hour's stall. The monotonic gate is unaffected.
    func testAdaptiveGatePublishesEarlyNotLateOnAWallClockStepBack() {
        let (date, mono) = run("step-minus-1h", .adaptiveGate, .date, .monotonic)
        XCTAssertLessThan(metric(date, "max_publish_gap_ms")!, 1_100)
        XCTAssertEqual(metric(mono, "publishes_early"), 0)
        XCTAssertLessThan(metric(mono, "max_publish_gap_ms")!, 200)
    }

    /// The same by hand, proving the step really put the wall clock behind the last publish (where
    /// a gate without `abs()` would wait an hour) and that the gate opened anyway.
    func testAdaptiveGateAbsOpensBehindTheLastPublish() {
        let schedule = ClockSchedule(scenario: SkewScenario.named("step-minus-1h")!)
        let now = VirtualNow()
        var gate = AdaptiveUpdateGate(clock: SimulatedClock(.date, schedule: schedule, now: now))
        gate.resumeLink()
        for i in 0..<20 {
            now.trueTime = 58_000_000_000 + Int64(i) * 100_000_000  // a 10 fps link: the slow side
            gate.tick()
        }
        now.trueTime = 59_990_000_000
        XCTAssertTrue(gate.mayPublish(), "no gate before the first publish")
        gate.didPublish(pendingAfter: true)
        let last = gate.lastPublishStart!
        now.trueTime = 60_010_000_000  // 20 ms later, just after the step
        let reading = SimulatedClock(.date, schedule: schedule, now: now).stamp()
        XCTAssertLessThan(reading.seconds(since: last), -3_599, "the wall clock is an hour behind the last publish")
        XCTAssertTrue(gate.mayPublish(), "abs(now − last) ≈ 1 h ≥ target: the gate opens")
        XCTAssertTrue(gate.samples.isEmpty, "every sample is an hour off now: abs(now − sample) ≥ 5 s drops them")
        // A new sample after the step, then one more: first < last again, a rate is estimated.
        gate.tick()
        XCTAssertEqual(gate.target(), 0.05, "fewer than 2 samples: the fast interval")
    }

    /// Samples out of order (first ≥ last, as after a backward step within the window) give the
    /// fast interval, as Signal's `firstDisplayLinkDate < lastDisplayLinkDate` guard does.
    func testAdaptiveGateFastWhenFirstIsNotBeforeLast() {
        let schedule = ClockSchedule(scenario: SkewScenario.named("ntp-step-minus-500ms")!)
        let now = VirtualNow()
        var gate = AdaptiveUpdateGate(clock: SimulatedClock(.realtime, schedule: schedule, now: now))
        gate.resumeLink()
        for t: Int64 in [59_000_000_000, 59_200_000_000, 59_400_000_000, 60_100_000_000] {
            now.trueTime = t
            gate.tick()
        }
        // Readings 59.0, 59.2, 59.4, then 59.6 (60.1 − 0.5): first < last, so a rate is estimated:
        // 4 samples in 0.6 s = 6.7 Hz, below the heavy 10 Hz: the slow interval.
        XCTAssertEqual(gate.target(), 1)
        now.trueTime = 60_050_000_000
        var stepped = AdaptiveUpdateGate(clock: SimulatedClock(.realtime, schedule: schedule, now: now))
        stepped.resumeLink()
        now.trueTime = 59_900_000_000
        stepped.tick()
        now.trueTime = 60_300_000_000  // reads 59.8: the last sample is before the first
        stepped.tick()
        XCTAssertGreaterThan(stepped.samples.first!, stepped.samples.last!)
        XCTAssertEqual(stepped.target(), 0.05)
    }

    // MARK: - DebouncedEvent: Signal's own timeline (DebouncedEvent.swift, N = 5 s)

    /// Requests A@1 B@2 C@4 D@8 E@9 F@20 (seconds), driven through the sim runner on a clock
    /// without skew; returns the fire times in seconds.
    func debounceFires<Client: TimingClient>(
        _ type: Client.Type,
        _ events: [Timed<Client.Event>]
    ) -> (fires: [Double], observations: [Observation]) where Client.Clock == SimulatedClock {
        var parameters = ClientParameters.sim
        parameters.debounceSeconds = 5
        let schedule = ClockSchedule(events: [])
        let now = VirtualNow()
        var client = Client(clock: SimulatedClock(.monotonic, schedule: schedule, now: now), parameters: parameters)
        let horizon: Int64 = 100_000_000_000
        SimRunner.drive(&client, workload: events, schedule: schedule, source: .monotonic, now: now, horizon: horizon)
        let o = client.observations(ScoringContext(suspensions: [], horizon: horizon, tolerance: 1_000_000))
        var fires: [Double] = []
        if let c = client as? LastOnlyDebounceClient<SimulatedClock> { fires = c.cycles.map { Double($0.fired) / 1e9 } }
        if let c = client as? TrailingDebounceClient<SimulatedClock> { fires = c.fireTimes.map { Double($0) / 1e9 } }
        return (fires, o)
    }

    static let timeline: [(second: Int64, burst: Int)] = [(1, 0), (2, 0), (4, 0), (8, 1), (9, 1), (20, 2)]

    /// Signal's lastOnly: fires at 6 (for A, B, C), 13 (for D, E) and 25 (for F): interval after
    /// the first request, later requests ignored.
    func testSignalLastOnlyReplaysSignalsTimeline() {
        let events = Self.timeline.map { Timed<LastOnlyDebounceClient<SimulatedClock>.Event>($0.second * 1_000_000_000, .request) }
        let (fires, o) = debounceFires(LastOnlyDebounceClient<SimulatedClock>.self, events)
        XCTAssertEqual(fires, [6, 13, 25])
        XCTAssertEqual(metric(o, "fires_ideal"), 3)
        XCTAssertEqual(metric(o, "timeouts_early"), 0)
        XCTAssertEqual(metric(o, "timeouts_late"), 0)
        XCTAssertEqual(metric(o, "max_wait_ms"), 5_000, "A waited the whole interval")
    }

    /// The article's re-arming debounce on the same requests: D@8 re-arms before the 9 s fire,
    /// so A…E are delivered together at 14 and F at 25 — a different timeline from Signal's.
    func testArticleTrailingDebounceOnTheSameTimeline() {
        let events = Self.timeline.map {
            Timed<TrailingDebounceClient<SimulatedClock>.Event>($0.second * 1_000_000_000, .request(burst: $0.burst))
        }
        let (fires, o) = debounceFires(TrailingDebounceClient<SimulatedClock>.self, events)
        XCTAssertEqual(fires, [14, 25])
        XCTAssertEqual(metric(o, "max_wait_ms"), 13_000, "A waited from 1 s to 14 s")
    }

    /// A steady stream (a request every 100 ms for 60 s, N = 0.5 s): Signal's lastOnly fires every
    /// interval and no request waits longer than N; the article's debounce starves until the
    /// stream stops.
    func testSteadyStreamStarvesOnlyTheArticlesDebounce() {
        var parameters = ClientParameters.sim
        parameters.debounceSeconds = 0.5
        let schedule = ClockSchedule(events: [])
        let horizon: Int64 = 100_000_000_000
        let times = (0..<600).map { Int64($0) * 100_000_000 }
        let now = VirtualNow()
        var signal = LastOnlyDebounceClient(clock: SimulatedClock(.monotonic, schedule: schedule, now: now), parameters: parameters)
        SimRunner.drive(
            &signal,
            workload: times.map { Timed($0, .request) },
            schedule: schedule,
            source: .monotonic,
            now: now,
            horizon: horizon
        )
        let now2 = VirtualNow()
        var article = TrailingDebounceClient(clock: SimulatedClock(.monotonic, schedule: schedule, now: now2), parameters: parameters)
        SimRunner.drive(
            &article,
            workload: times.map { Timed($0, .request(burst: 0)) },
            schedule: schedule,
            source: .monotonic,
            now: now2,
            horizon: horizon
        )
        let context = ScoringContext(suspensions: [], horizon: horizon, tolerance: 1_000_000)
        let s = signal.observations(context), a = article.observations(context)
        XCTAssertEqual(metric(s, "fires"), 120)
        XCTAssertLessThanOrEqual(metric(s, "max_wait_ms")!, 500)
        XCTAssertEqual(metric(a, "fires"), 1)
        XCTAssertGreaterThan(metric(a, "max_wait_ms")!, 59_000)
    }

    /// A −1 h step on the wall clock while a fire is enqueued: Signal's lastOnly timed on the wall
    /// clock holds that one fire for an hour and ignores every request meanwhile; on the monotonic
    /// clock Signal really uses (DispatchTime), nothing moves.
    func testSignalLastOnlyOnTheWallClockHoldsAnHourAfterAStepBack() {
        let schedule = ClockSchedule(scenario: SkewScenario.named("step-minus-1h")!)
        let horizon: Int64 = 10_000_000_000_000
        // A request 0.2 s before the step, then one a second for a minute.
        let times = [59_800_000_000] + (61...120).map { Int64($0) * 1_000_000_000 }
        var results: [ClockKind: [Observation]] = [:]
        for kind in [ClockKind.realtime, .monotonic] {
            let now = VirtualNow()
            var client = LastOnlyDebounceClient(clock: SimulatedClock(kind, schedule: schedule, now: now), parameters: .sim)
            SimRunner.drive(
                &client,
                workload: times.map { Timed($0, .request) },
                schedule: schedule,
                source: kind,
                now: now,
                horizon: horizon
            )
            results[kind] = client.observations(ScoringContext(suspensions: [], horizon: horizon, tolerance: 1_000_000))
        }
        let wall = results[.realtime]!, mono = results[.monotonic]!
        XCTAssertEqual(metric(wall, "fires"), 1, "one fire, an hour late, delivers everything")
        XCTAssertEqual(metric(wall, "timeouts_late"), 1)
        XCTAssertEqual(metric(wall, "max_wait_ms")!, 3_600_500, accuracy: 1)
        XCTAssertEqual(metric(mono, "fires"), 61)
        XCTAssertEqual(metric(mono, "max_wait_ms"), 500)
        XCTAssertEqual(metric(mono, "timeouts_late"), 0)
    }

    /// The gate's estimator: a steady 20 fps link gives f = n / ((n−1)/20) > 20 (the bias of
    /// dividing by the count), so alpha = 0 and the target is the fast 50 ms.
    func testAdaptiveGateTargetFromSamples() {
        let now = VirtualNow()
        let schedule = ClockSchedule(events: [])
        var gate = AdaptiveUpdateGate(clock: SimulatedClock(.monotonic, schedule: schedule, now: now))
        XCTAssertEqual(gate.target(), 0.05)
        gate.resumeLink()
        for i in 0..<10 {
            now.trueTime = Int64(i) * 50_000_000
            gate.tick()
        }
        XCTAssertEqual(gate.target(), 0.05)
        // A 12.5 fps link: f = 10 / (9 × 0.08) = 13.9, alpha = 0.611, target = 0.05 + 0.95·0.611 s.
        var slow = AdaptiveUpdateGate(clock: SimulatedClock(.monotonic, schedule: schedule, now: now))
        slow.resumeLink()
        for i in 0..<10 {
            now.trueTime = Int64(i) * 80_000_000
            slow.tick()
        }
        let f = 10.0 / 0.72
        XCTAssertEqual(slow.target(), 0.05 + 0.95 * ((20 - f) / 10), accuracy: 1e-12)
    }

    /// A backward step drains the naive token bucket: half the run admits nothing.
    func testRateLimiterUnderAdmitsAfterAStepBack() {
        let (wall, boot) = run("step-minus-1h", .rateLimiter, .realtime, .boottime)
        XCTAssertGreaterThan(metric(wall, "admissions_under_pct")!, 40)
        XCTAssertEqual(metric(boot, "admissions_under_pct"), 0)
        XCTAssertEqual(metric(boot, "admissions_over_pct"), 0)
    }

    /// Across a 10 min suspend, CLOCK_MONOTONIC misses the sleep and CLOCK_BOOTTIME does not.
    func testSuspendSeparatesMonotonicFromBoottime() {
        let (mono, boot) = run("suspend-10min", .timeout, .monotonic, .boottime)
        XCTAssertGreaterThan(metric(mono, "timeouts_late")!, 0)
        XCTAssertEqual(metric(boot, "timeouts_late"), 0)
        XCTAssertEqual(metric(boot, "timeouts_early"), 0)
    }

    func testNoSkewBreaksNothing() {
        let scenario = SkewScenario.named("none")!
        let schedule = ClockSchedule(scenario: scenario)
        for client in ClientKind.allCases {
            for kind in ClockKind.allCases {
                let o = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 7)
                let verdict = ClockReport.verdict(client, Dictionary(o.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a }))
                XCTAssertFalse(verdict.broke, "\(client.name) on \(kind.name): \(verdict.text)")
            }
        }
    }

    func testSameSeedGivesIdenticalResultsAndAnotherSeedDiffers() {
        for scenario in [SkewScenario.named("strobe-50ms-500ms")!, SkewScenario.named("leap-smear-100s")!] {
            let schedule = ClockSchedule(scenario: scenario)
            var differs = false
            for client in ClientKind.allCases {
                let a = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 11)
                let b = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 11)
                let c = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 12)
                XCTAssertEqual(a.map { $0.value.bitPattern }, b.map { $0.value.bitPattern }, "\(scenario.name) \(client.name)")
                if a != c { differs = true }
            }
            XCTAssertTrue(differs, scenario.name)
        }
    }

    /// Recording a timeline changes no result, and what the client's track shows is what it
    /// counted (the end-to-end check against Perfetto's schema is analysis/tests/test_perfetto_traces.py).
    func testRecordingATraceChangesNothingAndMatchesTheCounts() {
        let scenario = SkewScenario.named("leap-second")!
        let schedule = ClockSchedule(scenario: scenario)
        for client in ClientKind.allCases {
            for kind in [ClockKind.date, .boottime] {
                let plain = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 3)
                let traced = SimRunner.record(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 3, trace: true)
                XCTAssertEqual(plain.map { $0.value.bitPattern }, traced.observations.map { $0.value.bitPattern }, client.name)
                XCTAssertTrue(traced.trace.contains { $0.track == "clock error" && $0.kind == .counter }, client.name)
                XCTAssertTrue(traced.trace.contains { $0.track == "clock" && $0.name == "step" }, client.name)
                let m = Dictionary(plain.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a })
                func count(_ name: String) -> Double { Double(traced.trace.filter { $0.track == client.name && $0.name == name }.count) }
                switch client {
                case .timeout: XCTAssertEqual(count("fired late"), m["timeouts_late"])
                case .rateLimiter: XCTAssertEqual(count("admit"), m["admissions"])
                case .durationMeter: XCTAssertEqual(count("measure"), m["measurements"])
                case .debounceSignal, .debounceArticle: XCTAssertEqual(count("fire"), m["fires"])
                case .ttlCache: XCTAssertEqual(count("insert"), m["ttl_entries"])
                case .callDuration: XCTAssertEqual(count("wrong display"), m["display_wrong_ticks"])
                case .adaptiveGate: XCTAssertEqual(count("publish"), m["publishes"])
                }
            }
        }
        let untraced = SimRunner.record(scenario: scenario, schedule: schedule, client: .timeout, source: .date, seed: 3, trace: false)
        XCTAssertEqual(untraced.trace, [])
    }
}
