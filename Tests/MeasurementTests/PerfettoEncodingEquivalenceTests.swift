import XCTest

@testable import Measurement

/// The streaming encoder (packets written as the events are walked, no packet array, no global
/// sort) writes the same bytes as the encoder it replaced (`ReferencePerfettoEncoder`), so a
/// trace's content does not change with it (issue 29).
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
                events.append(
                    .slice(
                        ["load", "frame", "publish"][rng.below(3)],
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

    func testTheStreamingEncoderWritesTheReferenceBytes() {
        var rng = SplitMix(state: 29)
        for round in 0..<40 {
            var trace = PerfettoTrace()
            for i in 0..<3 {
                trace.add(randomItem(&rng, index: i, actors: [2, 5, 12, 30][round % 4], count: rng.below(600)))
            }
            XCTAssertEqual(trace.encoded(), ReferencePerfettoEncoder.encoded(trace.items), "round \(round)")
        }
    }

    /// Events already in time order take the path without a sort; the bytes are the same.
    func testEventsInTimeOrderGiveTheReferenceBytes() {
        var rng = SplitMix(state: 7)
        var item = randomItem(&rng, index: 0, actors: 5, count: 2_000)
        item.events.sort { $0.startNanoseconds < $1.startNanoseconds }
        var trace = PerfettoTrace()
        trace.add(item)
        XCTAssertEqual(trace.encoded(), ReferencePerfettoEncoder.encoded([item]))
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
        XCTAssertNotEqual(trace.encoded(), ReferencePerfettoEncoder.encoded([swapped]))
        XCTAssertEqual(trace.encoded(), ReferencePerfettoEncoder.encoded(trace.items))
    }

    /// Items larger than a chunk are handed on in several chunks of whole packets; together they
    /// are the reference bytes.
    func testChunksOfALargeItemConcatenateToTheReference() {
        var rng = SplitMix(state: 3)
        let item = randomItem(&rng, index: 0, actors: 6, count: 60_000)
        var chunks = 0
        var bytes: [UInt8] = []
        PerfettoTrace.encode(item, pid: 1) {
            chunks += 1
            bytes += $0
        }
        XCTAssertGreaterThan(chunks, 1)
        XCTAssertEqual(bytes, ReferencePerfettoEncoder.encoded([item]))
    }
}
