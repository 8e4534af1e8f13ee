import Foundation
import XCTest

@testable import Timelines

/// The streaming encoder (packets written as the events are walked, no packet array, no global
/// sort, names interned, small track uuids) writes the same content as the encoder it replaced
/// (`ReferencePerfettoEncoder`): decoded (`DecodedPerfettoTrace`), every event has the same
/// process, track, type, time, name and values, in the same order.
final class PerfettoEncodingEquivalenceTests: XCTestCase {
    /// A seeded generator, so that a failure repeats.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Events that exercise every ordering rule: equal start times across kinds, overlapping
    /// slices of one actor (extra lanes), zero-length and negative-time slices, ends that tie
    /// with starts and with each other, a real track named like a lane (`main #2`), counters
    /// whose unit changes, values and none, and more actors than the linear lookup covers.
    func randomItem(_ rng: inout SplitMix, index: Int, actors: Int, count: Int) -> ItemTrace {
        let names = ["main", "writer", "main #2", "display", "pending rows"] + (0..<max(0, actors - 5)).map { "thread \($0)" }
        var events: [TraceEvent] = []
        for _ in 0..<count {
            let track = names[rng.below(min(actors, names.count))]
            let start = Int64(rng.below(400)) - 5
            let value: Double? = rng.below(3) == 0 ? nil : Double(rng.below(1000)) / 8
            switch rng.below(4) {
            case 0, 1:
                let name = rng.below(4)
                guard name < 3 else {
                    // A numbered name (`NumberedName`): written from its parts, not interned.
                    events.append(.slice(Self.numbered, rng.below(300), on: track, start: start, duration: Int64(rng.below(30))))
                    continue
                }
                events.append(
                    .slice(
                        ["load", "frame", "publish"][name],
                        on: track,
                        start: start,
                        duration: Int64(rng.below(30)),
                        value: value
                    )
                )
            case 2: events.append(.instant("missed vsync", on: track, at: start, value: value))
            default: events.append(.counter(track, unit: ["rows", "ms"][rng.below(2)], at: start, value: value ?? 0))
            }
        }
        return ItemTrace(scenario: "s\(index)", variant: "v", mode: "sim", seed: UInt64(index), repetition: 0, events: events)
    }

    /// The numbered name of `randomItem`'s flow slices, its number in the middle.
    static let numbered = NumberedName("flow ", " done")

    /// The decoded content of both encodings (a decoding failure fails the test).
    func decoded(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> DecodedPerfettoTrace? {
        do { return try DecodedPerfettoTrace(bytes) } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func assertSameContent(_ items: [ItemTrace], _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        var trace = PerfettoTrace()
        for item in items { trace.add(item) }
        let new = decoded(trace.encoded(), file: file, line: line)
        let reference = decoded(ReferencePerfettoEncoder.encoded(items), file: file, line: line)
        XCTAssertEqual(new?.tracks, reference?.tracks, message, file: file, line: line)
        XCTAssertEqual(new?.events.count, reference?.events.count, message, file: file, line: line)
        if let new, let reference,
            let k = new.events.indices.first(where: { $0 < reference.events.count && new.events[$0] != reference.events[$0] })
        {
            XCTFail("\(message): event \(k): \(new.events[k]) vs \(reference.events[k])", file: file, line: line)
        }
    }

    func testTheStreamingEncoderWritesTheReferenceContent() {
        var rng = SplitMix(state: 29)
        for round in 0..<40 {
            let items = (0..<3).map { i in randomItem(&rng, index: i, actors: [2, 5, 12, 30][round % 4], count: rng.below(600)) }
            assertSameContent(items, "round \(round)")
        }
    }

    /// More distinct names than the linear lookup covers: each keeps its own interned id.
    func testManyDistinctNamesKeepTheirNames() {
        let events = (0..<200).map { TraceEvent.instant("event \($0 % 40)", on: "main", at: Int64($0), value: Double($0)) }
        assertSameContent([ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)])
    }

    /// Interning is what makes the trace smaller: the same content in fewer bytes than the
    /// reference (names written once per item, not once per event).
    func testInterningMakesTheTraceSmaller() {
        var rng = SplitMix(state: 11)
        var trace = PerfettoTrace()
        trace.add(randomItem(&rng, index: 0, actors: 5, count: 5_000))
        XCTAssertLessThan(Double(trace.encoded().count), 0.85 * Double(ReferencePerfettoEncoder.encoded(trace.items).count))
    }

    /// Whole numbers (keys, counts) go as varints — `int_value`, `counter_value` — and read back
    /// as the same numbers, in fewer bytes; fractions, -0 and numbers beyond 2^53 stay doubles.
    func testWholeNumbersGoAsVarintsWithTheSameValues() throws {
        let values: [Double] = [0, 1, 127, 128, -3, 1e15, 0.5, -0.0, 0x1p60, .infinity, -2.25]
        let events = values.enumerated().flatMap { i, v -> [TraceEvent] in
            [.instant("read", on: "reads", at: Int64(i), value: v), .counter("occupancy", unit: "entries", at: Int64(i), value: v)]
        }
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)
        assertSameContent([item])
        var trace = PerfettoTrace()
        trace.add(item)
        let decoded = try DecodedPerfettoTrace(trace.encoded())
        XCTAssertEqual(decoded.events.compactMap(\.value).map(\.bitPattern), values.map(\.bitPattern), "-0 keeps its sign")
        XCTAssertEqual(decoded.events.compactMap(\.counter).map(\.bitPattern), values.map(\.bitPattern))
        /// 100 reads on one track whose values are `value(i)`, encoded.
        func reads(_ value: (Int) -> Double) -> [UInt8] {
            var trace = PerfettoTrace()
            let events: [TraceEvent] = (0..<100).map { .instant("read", on: "reads", at: Int64($0), value: value($0)) }
            trace.add(ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events))
            return trace.encoded()
        }
        // Control: the same events with fractional values take the 8 bytes of a double each.
        XCTAssertLessThanOrEqual(reads { Double($0) }.count + 100 * 6, reads { Double($0) + 0.5 }.count)
    }

    /// Control: the decoded comparison sees one changed value and one renamed event.
    func testTheDecodedComparisonSeesAChangedValueOrName() throws {
        let events: [TraceEvent] = [.slice("a", on: "main", start: 0, duration: 10, value: 1), .instant("x", on: "main", at: 5)]
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)
        var changed = item
        changed.events[0].value = 2
        var renamed = item
        renamed.events[1].name = "y"
        var trace = PerfettoTrace()
        trace.add(item)
        let new = try DecodedPerfettoTrace(trace.encoded())
        XCTAssertEqual(new, try DecodedPerfettoTrace(ReferencePerfettoEncoder.encoded([item])))
        XCTAssertNotEqual(new, try DecodedPerfettoTrace(ReferencePerfettoEncoder.encoded([changed])))
        XCTAssertNotEqual(new, try DecodedPerfettoTrace(ReferencePerfettoEncoder.encoded([renamed])))
        XCTAssertEqual(new.events.map(\.name), ["a", "x", nil])
    }

    /// Events already in time order take the path without a sort; the content is the same.
    func testEventsInTimeOrderGiveTheReferenceContent() {
        var rng = SplitMix(state: 7)
        var item = randomItem(&rng, index: 0, actors: 5, count: 2_000)
        item.events.sort { $0.startNanoseconds < $1.startNanoseconds }
        assertSameContent([item])
    }

    /// Control: the comparison sees a difference of one tie — two begins at one time on one
    /// track swapped (their lanes and the order of their packets change).
    func testTheComparisonSeesOneSwappedTie() {
        let a: [TraceEvent] = [
            .slice("a", on: "main", start: 0, duration: 10), .slice("b", on: "main", start: 0, duration: 5),
            .instant("x", on: "main", at: 5),
        ]
        var trace = PerfettoTrace()
        trace.add(ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: a))
        let swapped = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: [a[1], a[0], a[2]])
        XCTAssertNotEqual(decoded(trace.encoded()), decoded(ReferencePerfettoEncoder.encoded([swapped])))
        XCTAssertEqual(decoded(trace.encoded()), decoded(ReferencePerfettoEncoder.encoded(trace.items)))
    }

    /// Items larger than a chunk are handed on in several chunks of whole packets; together they
    /// are the whole item's bytes, with the reference content.
    func testChunksOfALargeItemConcatenateToTheReference() {
        var rng = SplitMix(state: 3)
        // About 33 bytes an event: 70,000 events are 2.3 MB, three chunks of 1 MiB (a chunk with a
        // boundary on both sides); 120,000 (four) took most of the test's time in a debug build.
        let item = randomItem(&rng, index: 0, actors: 6, count: 70_000)
        // The reference encoded and decoded on a thread of its own meanwhile (each path
        // is single-threaded, about 1 s in a debug build). The test case keeps no state.
        nonisolated(unsafe) let test = self
        nonisolated(unsafe) var reference: DecodedPerfettoTrace?
        let referenceDone = DispatchSemaphore(value: 0)
        Thread {
            reference = test.decoded(ReferencePerfettoEncoder.encoded([item]))
            referenceDone.signal()
        }.start()
        var chunks = 0
        var bytes: [UInt8] = []
        PerfettoTrace.encode(item, pid: 1) {
            chunks += 1
            bytes += $0
        }
        XCTAssertGreaterThanOrEqual(chunks, 3)
        var trace = PerfettoTrace()
        trace.add(item)
        XCTAssertEqual(bytes, trace.encoded())
        let streamed = decoded(bytes)
        referenceDone.wait()
        XCTAssertEqual(streamed, reference)
    }
}

/// Runs of periodic slices (`SliceRun`, bench-group's idle frames) encode to the bytes of the
/// same slices as events, in place.
final class PerfettoSliceRunTests: XCTestCase {
    typealias SplitMix = PerfettoEncodingEquivalenceTests.SplitMix

    func bytes(_ item: ItemTrace) -> [UInt8] {
        var trace = PerfettoTrace()
        trace.add(item)
        return trace.encoded()
    }

    /// Events on a few tracks, some at the runs' times (ties broken by position), and runs that
    /// follow each other — or, every third round, overlap (put among the events first) — with
    /// slices longer than the period (extra lanes), empty runs and two runs at one position.
    func randomItem(_ rng: inout SplitMix, round: Int) -> ItemTrace {
        var events: [TraceEvent] = []
        for _ in 0..<rng.below(300) {
            let start = Int64(rng.below(40)) * 5
            let track = ["main", "worker 1", "main #2"][rng.below(3)]
            switch rng.below(3) {
            case 0: events.append(.slice(["tap", "frame"][rng.below(2)], on: track, start: start, duration: Int64(rng.below(20))))
            case 1: events.append(.instant("missed frame", on: track, at: start, value: Double(rng.below(9))))
            default: events.append(.counter("threads", unit: "threads", at: start, value: Double(rng.below(4))))
            }
        }
        var runs: [SliceRun] = []
        var start = Int64(rng.below(20)) - 5
        for _ in 0..<rng.below(6) {
            let period = Int64(1 + rng.below(10))
            let count = rng.below(12)
            runs.append(
                SliceRun(
                    ["frame", "idle"][rng.below(2)],
                    on: ["main", "worker 1"][rng.below(2)],
                    start: start,
                    period: period,
                    duration: Int64(rng.below(15)),
                    count: count,
                    position: rng.below(events.count + 1)
                )
            )
            start += period * Int64(max(0, count - 1)) + Int64(rng.below(3)) - (round % 3 == 0 ? 30 : 0)
        }
        runs.sort { $0.position < $1.position }  // in creation order: runs follow each other in time
        if round % 3 == 0 { runs.reverse() }
        return ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: runs)
    }

    func testRunsEncodeAsTheirSlicesInPlace() {
        var rng = SplitMix(state: 2911)
        var withRuns = 0
        for round in 0..<60 {
            let item = randomItem(&rng, round: round)
            var expanded = item
            expanded.expandRuns()
            XCTAssertEqual(expanded.events.count, item.eventCount)
            XCTAssertEqual(bytes(item), bytes(expanded), "round \(round)")
            if !item.runs.isEmpty { withRuns += 1 }
        }
        XCTAssertGreaterThan(withRuns, 30)
    }

    /// Long runs (an idle main thread's hundreds of frames between two events, taken a stretch at
    /// a time), runs of one name on two tracks and on lanes (slices longer than the period), and
    /// more distinct names than are interned (a run's name then written in place, its packet
    /// templates kept per run): the same bytes as the slices one by one.
    func testLongRunsOnSeveralTracksEncodeAsTheirSlices() {
        var rng = SplitMix(state: 2929)
        var longRuns = 0
        for round in 0..<40 {
            var events: [TraceEvent] = []
            let names = (0..<(round % 2 == 0 ? 4 : 40)).map { "flow \($0) tap" }
            for _ in 0..<rng.below(60) {
                let start = Int64(rng.below(4000))
                let track = ["main", "worker 1"][rng.below(2)]
                if rng.below(4) == 0 {
                    events.append(.instant("missed frame", on: track, at: start, value: Double(rng.below(9))))
                } else {
                    events.append(.slice(names[rng.below(names.count)], on: track, start: start, duration: Int64(rng.below(200))))
                }
            }
            events.sort { $0.startNanoseconds < $1.startNanoseconds }
            var runs: [SliceRun] = []
            var start = Int64(rng.below(20))
            for _ in 0..<(1 + rng.below(5)) {
                let period = Int64(5 + rng.below(20))
                let count = rng.below(400)
                if count > 100 { longRuns += 1 }
                runs.append(
                    SliceRun(
                        names[rng.below(names.count)],
                        on: ["main", "worker 1"][rng.below(2)],
                        start: start,
                        period: period,
                        duration: rng.below(5) == 0 ? period + Int64(rng.below(30)) : Int64(rng.below(Int(period))),
                        count: count,
                        position: rng.below(events.count + 1)
                    )
                )
                start += period * Int64(max(0, count - 1)) + 1 + Int64(rng.below(50))
            }
            runs.sort { $0.position < $1.position }
            let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: runs)
            var expanded = item
            expanded.expandRuns()
            XCTAssertEqual(bytes(item), bytes(expanded), "round \(round)")
        }
        XCTAssertGreaterThan(longRuns, 20)
    }

    /// Control: the same run on another track, or with another name, is other bytes — a packet
    /// template kept for the wrong track or name would show in the comparison above.
    func testARunsTrackAndNameAreInItsBytes() {
        let events: [TraceEvent] = [.slice("tap", on: "worker 1", start: 5, duration: 3)]
        func item(_ name: String, _ track: String) -> ItemTrace {
            let run = SliceRun(name, on: track, start: 0, period: 10, duration: 2, count: 50, position: 1)
            return ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: [run])
        }
        XCTAssertNotEqual(bytes(item("frame", "main")), bytes(item("frame", "worker 1")))
        XCTAssertNotEqual(bytes(item("frame", "main")), bytes(item("frames", "main")))
    }

    /// `allEvents` puts a run's slices before `events[position]`, runs at one position in order;
    /// `--events` rows list them so.
    func testAllEventsPutsTheSlicesAtTheirPosition() {
        let events: [TraceEvent] = [.instant("a", on: "main", at: 0), .instant("b", on: "main", at: 50)]
        let runs = [
            SliceRun("f", on: "main", start: 10, period: 10, duration: 2, count: 2, position: 1),
            SliceRun("g", on: "main", start: 30, period: 5, duration: 1, count: 1, position: 1),
            SliceRun("h", on: "main", start: 60, period: 5, duration: 1, count: 1, position: 2),
        ]
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: runs)
        XCTAssertEqual(item.allEvents.map(\.name), ["a", "f", "f", "g", "b", "h"])
        XCTAssertEqual(item.allEvents.map(\.startNanoseconds), [0, 10, 20, 30, 50, 60])
        XCTAssertEqual(item.timelineRecords.map(\.event), ["a", "f", "f", "g", "b", "h"])
        XCTAssertEqual(item.eventCount, 6)
    }

    /// Control: a run whose slice ties with an event is placed by its position — moved past the
    /// event, the packets come in another order, so the byte comparison above can fail.
    func testAPositionChangesTheOrderOfTies() {
        let events: [TraceEvent] = [.slice("tap", on: "main", start: 10, duration: 3)]
        func item(position: Int) -> ItemTrace {
            let run = SliceRun("frame", on: "main", start: 0, period: 10, duration: 2, count: 3, position: position)
            return ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: [run])
        }
        XCTAssertNotEqual(bytes(item(position: 0)), bytes(item(position: 1)))
        var expanded = item(position: 1)
        expanded.expandRuns()
        XCTAssertEqual(bytes(item(position: 1)), bytes(expanded))
    }

    /// A run made with a negative count is empty (the encoder walks a run until its count; below
    /// zero it would never stop): it encodes as no run at all.
    func testANegativeCountIsAnEmptyRun() {
        let run = SliceRun("frame", on: "main", start: 0, period: 10, duration: 2, count: -3, position: 0)
        XCTAssertEqual(run.count, 0)
        let events: [TraceEvent] = [.slice("tap", on: "main", start: 10, duration: 3)]
        let with = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: [run])
        let without = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)
        XCTAssertEqual(with.eventCount, 1)
        XCTAssertEqual(bytes(with), bytes(without))
    }

    /// A cut or a window works on the slices one by one; the stream counts them.
    func testCutAndWindowSeeEverySlice() {
        let run = SliceRun("frame", on: "main", start: 0, period: 10, duration: 2, count: 100, position: 0)
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: [], runs: [run])
        var trace = PerfettoTrace()
        trace.add(item)
        XCTAssertEqual(trace.eventCount, 100)
        trace.restrict(to: 100..<200)
        XCTAssertEqual(trace.items[0].events.map(\.startNanoseconds), Array(stride(from: 100, to: 200, by: 10)))
        var cut = PerfettoTrace()
        cut.add(item)
        XCTAssertEqual(cut.cap(at: 30), 70)
        XCTAssertEqual(cut.items[0].events.last?.startNanoseconds, 290)
    }
}
