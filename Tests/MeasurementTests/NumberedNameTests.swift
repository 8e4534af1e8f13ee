import Foundation
import XCTest

@testable import Timelines

/// An event with a numbered name (`NumberedName`) reads, compares, codes and encodes as the same
/// event with that name whole.
final class NumberedNameTests: XCTestCase {
    func testNamesAreTheInterpolatedOnes() {
        let middle = NumberedName("movies hedge flow ", " succeeded")
        let end = NumberedName("tap flow ")
        let accents = NumberedName("é ", " ü")
        for n in [0, 1, 9, 10, 99, 100, 12_345, Int(Int32.max), Int(Int32.max) + 1, Int.max, -3] {
            XCTAssertEqual(middle(n), "movies hedge flow \(n) succeeded")
            XCTAssertEqual(end(n), "tap flow \(n)")
            XCTAssertEqual(accents(n), "é \(n) ü")
            // Held as parts up to Int32.max, spelled out whole beyond it and below 0.
            let event = TraceEvent.slice(middle, n, on: "calls", start: 5, duration: 3)
            XCTAssertEqual(event.name, "movies hedge flow \(n) succeeded")
            XCTAssertEqual(event.number >= 0, (0...Int(Int32.max)).contains(n))
            XCTAssertEqual(TraceEvent.slice(accents, n, on: "calls", start: 5, duration: 3).name, "é \(n) ü")
        }
    }

    /// Control: the comparison above sees a digit out of place.
    func testTheComparisonSeesAWrongName() {
        XCTAssertNotEqual(NumberedName("tap flow ")(120), "tap flow 12")
        XCTAssertNotEqual(NumberedName("flow ", " a")(5), "flow  a5")
    }

    func testANumberedEventEqualsAndHashesAsTheWholeName() {
        let numbered = TraceEvent.slice(NumberedName("ui-update flow "), 42, on: "main", start: 10, duration: 4)
        let whole = TraceEvent.slice("ui-update flow 42", on: "main", start: 10, duration: 4)
        XCTAssertEqual(numbered, whole)
        XCTAssertEqual(Set([numbered, whole]).count, 1)
        // Control: another number, or the same text with the number elsewhere, is another event.
        XCTAssertNotEqual(numbered, TraceEvent.slice(NumberedName("ui-update flow "), 43, on: "main", start: 10, duration: 4))
        XCTAssertNotEqual(numbered, TraceEvent.slice("ui-update flow 4", on: "main", start: 10, duration: 4))
        var renamed = numbered
        renamed.name = "frame"
        XCTAssertEqual(renamed, TraceEvent.slice("frame", on: "main", start: 10, duration: 4))
    }

    func testANumberedEventCodesAsTheWholeName() throws {
        let numbered = TraceEvent.slice(NumberedName("flow ", " (tap, wait, ui-update)"), 7, on: "main", start: 1, duration: 2)
        let whole = TraceEvent.slice("flow 7 (tap, wait, ui-update)", on: "main", start: 1, duration: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode([numbered, whole.withValue(3)])
        XCTAssertEqual(
            String(decoding: json, as: UTF8.self),
            String(decoding: try encoder.encode([whole, whole.withValue(3)]), as: UTF8.self)
        )
        XCTAssertEqual(try JSONDecoder().decode([TraceEvent].self, from: json), [whole, whole.withValue(3)])
    }

    /// What the encoder writes from the parts is what the reference writes from the whole name.
    func testTheTraceReadsTheWholeNames() throws {
        let name = NumberedName("movie flow ", " timed-out")
        let numbered: [TraceEvent] = (0..<100).map { .slice(name, $0 * 37, on: "calls", start: Int64($0) * 10, duration: 5) }
        let whole = numbered.map { TraceEvent.slice($0.name, on: "calls", start: $0.startNanoseconds, duration: 5) }
        var trace = PerfettoTrace()
        trace.add(ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: numbered))
        let decoded = try DecodedPerfettoTrace(trace.encoded())
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: whole)
        XCTAssertEqual(decoded, try DecodedPerfettoTrace(ReferencePerfettoEncoder.encoded([item])))
        XCTAssertEqual(decoded.events.compactMap(\.name).filter { $0.hasPrefix("movie") }, whole.map(\.name))
    }

    /// A numbered `frame N` is not an idle frame, though its text is `frame`: two of them in a
    /// row stay two slices (the collapse reads the number, not just the text).
    func testANumberedFrameIsNotAnIdleFrame() {
        let frames = NumberedName("frame")
        let events: [TraceEvent] = [
            .slice(frames, 1, on: "main", start: 0, duration: 2), .slice(frames, 2, on: "main", start: 10, duration: 2),
        ]
        let item = ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)
        XCTAssertEqual(item.collapsingIdleFrames().events.map(\.name), ["frame1", "frame2"])
        // Control: the same slices named `frame` are collapsed into one stretch.
        let idle = ItemTrace(
            scenario: "s",
            variant: "v",
            mode: "sim",
            seed: 1,
            repetition: 0,
            events: events.map { e in
                var e = e
                e.name = "frame"
                return e
            }
        )
        XCTAssertEqual(idle.collapsingIdleFrames().events.map(\.name), ["idle, 2 frames"])
    }

    /// The number and its place sit in the padding after `value`: an event is still 40 bytes.
    func testAnEventIsStill40Bytes() {
        XCTAssertEqual(MemoryLayout<TraceEvent>.stride, 40)
    }
}

extension TraceEvent {
    fileprivate func withValue(_ value: Double) -> TraceEvent {
        var e = self
        e.value = value
        return e
    }
}
