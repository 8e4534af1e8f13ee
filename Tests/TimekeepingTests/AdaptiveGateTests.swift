import Measurement
import Simulation
import XCTest

@testable import Timekeeping

/// Where and when the adaptive gate publishes: only at a commit or a display-link tick on the
/// 20-fps grid, as Signal's `DatabaseChangeObserver` re-checks its gate only in a commit's block
/// and in `displayLinkDidFire`; and how an exact tie is decided.
final class AdaptiveGateTests: XCTestCase {
    typealias Client = AdaptiveGateClient<SimulatedClock>
    let ms: Int64 = 1_000_000

    func drive(_ workload: [Timed<Client.Event>], _ source: ClockKind, _ schedule: ClockSchedule = ClockSchedule(events: [])) -> Client {
        let now = VirtualNow()
        var client = Client(clock: SimulatedClock(source, schedule: schedule, now: now), parameters: .sim)
        client.recordTrace()
        SimRunner.drive(&client, workload: workload, schedule: schedule, source: source, now: now, horizon: 10_000 * ms)
        return client
    }

    /// The smallest case of a gate that opens between ticks, on a perfect clock: commits at 10 and 20 ms, link ticks at 50, 100
    /// and 150 ms. Signal publishes at 10 ms (no gate before the first publish) and at the 100 ms
    /// tick (at the 50 ms tick only 40 ms have passed). The gate is open from 60 ms on, which is
    /// where a model that woke the client when its gate opened published (the control below); no
    /// tick or commit is there, so nothing publishes there.
    func testPublishesAtTheNextTickNotWhenTheGateOpens() {
        let workload: [Timed<Client.Event>] = [
            Timed(10 * ms, .commit), Timed(20 * ms, .commit), Timed(50 * ms, .tick), Timed(100 * ms, .tick), Timed(150 * ms, .tick),
        ]
        for source in ClockKind.allCases {
            let client = drive(workload, source)
            XCTAssertEqual(client.published!.map(\.time), [10 * ms, 100 * ms], source.name)
            XCTAssertEqual(client.published!.map(\.commits), [1, 1], source.name)
            XCTAssertEqual(client.pending, 0, source.name)
        }
        // Control: by hand up to 60 ms. Commits take no sample, the 50 ms tick takes one and keeps
        // the gate shut, and at 60 ms the gate *is* open: a wake there would publish.
        let now = VirtualNow()
        var client = Client(clock: SimulatedClock(.date, schedule: ClockSchedule(events: []), now: now), parameters: .sim)
        for e in workload.prefix(3) {
            now.trueTime = e.time
            client.handle(e.event, trueTime: e.time)
            XCTAssertEqual(client.gate.samples.count, e.event == .tick ? 1 : 0, "samples are taken at ticks only")
        }
        XCTAssertEqual(client.publishes, 1)
        XCTAssertEqual(client.wakeDeadline, nil, "the gate's clock never wakes the client")
        XCTAssertEqual(client.wakeAtTrueTime, 100 * ms, "the next vsync on the grid")
        // 61 ms: at exactly 60 ms the `date` source meets an exact tie (see the tie test below).
        now.trueTime = 61 * ms
        var gate = client.gate
        XCTAssertTrue(gate.mayPublish(), "the gate is open after 60 ms: only the absence of a tick keeps Signal from publishing")
    }

    /// After the workload's own ticks end, the link keeps ticking on the grid while a commit is
    /// pending, and stops once nothing is.
    func testKeepsTickingOnTheGridAfterTheWorkloadsTicks() {
        let workload: [Timed<Client.Event>] = [Timed(10 * ms, .commit), Timed(20 * ms, .commit), Timed(50 * ms, .tick)]
        for source in ClockKind.allCases {
            let client = drive(workload, source)
            XCTAssertEqual(client.published!.map(\.time), [10 * ms, 100 * ms], source.name)
            XCTAssertNil(client.wakeAtTrueTime, "nothing pending: the link is paused")
            XCTAssertEqual(client.lastTick, 100 * ms)
        }
        // Control: the same events without the continuation leave the commit unpublished.
        let now = VirtualNow()
        var client = Client(clock: SimulatedClock(.monotonic, schedule: ClockSchedule(events: []), now: now), parameters: .sim)
        for e in workload {
            now.trueTime = e.time
            client.handle(e.event, trueTime: e.time)
        }
        XCTAssertEqual(client.pending, 1)
    }

    /// A continuation tick that falls in a suspend comes at the resume, then the grid goes on.
    func testATickDueInASuspendComesAtTheResume() {
        let schedule = ClockSchedule(events: [.suspend(at: 0.06, for: 1)])
        let workload: [Timed<Client.Event>] = [Timed(10 * ms, .commit), Timed(20 * ms, .commit), Timed(50 * ms, .tick)]
        let client = drive(workload, .boottime, schedule)
        XCTAssertEqual(client.published!.map(\.time), [10 * ms, 1_060 * ms])
    }

    /// The exact tie: the last publish at true 1.000 s, a tick at exactly 1.050 s, no samples (the
    /// 50 ms fast interval). Signal's `Date`s are `Double` seconds since 2001 on a 2^−23 s grid at
    /// the run's 2026 epoch, and these two are 0.049 999 952 s apart: Signal's gate stays shut. The
    /// integer clocks subtract whole nanoseconds, and a 50 000 000 ns tie passes. Control: the
    /// `date` source's nanosecond readings — what the gate compared before — differ by exactly
    /// 50 000 000, so comparing them passed the tie that Signal's `Date` arithmetic does not.
    func testAnExactTieIsDecidedAsTheTimeTypeSubtracts() {
        let schedule = ClockSchedule(events: [])
        for source in ClockKind.allCases {
            let now = VirtualNow()
            let clock = SimulatedClock(source, schedule: schedule, now: now)
            var gate = AdaptiveUpdateGate(clock: clock)
            now.trueTime = 1_000 * ms
            gate.didPublish(pendingAfter: true)
            let last = clock.now()
            now.trueTime = 1_050 * ms
            XCTAssertEqual(clock.now() - last, 50 * ms, "\(source.name): the readings tie")
            XCTAssertEqual(gate.target(), 0.05)
            XCTAssertEqual(gate.mayPublish(), source != .date, source.name)
            if source == .date {
                XCTAssertEqual(clock.stamp().seconds(since: gate.lastPublishStart!), 0.049_999_952_316_284_18)
            }
        }
        // Over 1000 ties at different instants the `Date` passes only some (where the two roundings
        // land at or above 0.05 s), the integer clocks all: which ties pass depends on the epoch.
        var passed: [ClockKind: Int] = [:]
        for source in ClockKind.allCases {
            for i in 0..<1000 {
                let now = VirtualNow()
                var gate = AdaptiveUpdateGate(clock: SimulatedClock(source, schedule: schedule, now: now))
                now.trueTime = 1_000 * ms + Int64(i) * 1_700_000
                gate.didPublish(pendingAfter: true)
                now.trueTime += 50 * ms
                if gate.mayPublish() { passed[source, default: 0] += 1 }
            }
        }
        XCTAssertEqual(passed[.date], 400)
        for source in ClockKind.allCases where source != .date { XCTAssertEqual(passed[source], 1000, source.name) }
    }

    /// The interval is Signal's `lerp` (`fast × (1 − alpha) + slow × alpha`), not the algebraically
    /// equal `fast + (slow − fast) × alpha`, which is 1 ulp lower at f = 16 Hz: a 430 ms tie would
    /// pass there and not in Signal.
    func testTheIntervalIsSignalsLerp() {
        let alpha = (16.0 - 20) / (10 - 20)
        XCTAssertEqual(SignalPublishInterval.interval(forFrequency: 16), 0.05 * (1 - alpha) + 1 * alpha)
        XCTAssertEqual(SignalPublishInterval.interval(forFrequency: 16), 0.430_000_000_000_000_05)
        XCTAssertNotEqual(
            0.05 + (1 - 0.05) * alpha,
            SignalPublishInterval.interval(forFrequency: 16),
            "the control: the other form differs"
        )
        XCTAssertFalse(
            SignalPublishInterval.isDue(elapsedSeconds: Double(430 * ms) / 1e9, interval: SignalPublishInterval.interval(forFrequency: 16))
        )
        XCTAssertEqual(SignalPublishInterval.interval(forFrequency: nil), 0.05)
        XCTAssertEqual(SignalPublishInterval.interval(forFrequency: 9), 1)
        XCTAssertEqual(SignalPublishInterval.interval(forFrequency: 40), 0.05)
    }
}
