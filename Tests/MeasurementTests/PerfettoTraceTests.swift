import Measurement
import XCTest

final class PerfettoTraceTests: XCTestCase {
    func item(_ name: String, events: Int) -> ItemTrace {
        ItemTrace(
            scenario: name,
            variant: "v",
            mode: "sim",
            seed: 1,
            repetition: 0,
            events: (0..<events).map { .instant("e", on: "main", at: Int64($0)) }
        )
    }

    /// The cut keeps small items whole and shares what they leave among the large ones, earliest
    /// events first, and never exceeds the limit.
    func testTheCutFillsTheLimitAndKeepsSmallItemsWhole() {
        var trace = PerfettoTrace()
        trace.add(item("small", events: 10))
        trace.add(item("large", events: 1_000))
        trace.add(item("larger", events: 5_000))
        let dropped = trace.cap(at: 1_000)
        XCTAssertEqual(trace.eventCount, 1_000)
        XCTAssertEqual(dropped, 6_010 - 1_000)
        XCTAssertEqual(trace.items[0].events.count, 10, "a small item keeps everything")
        XCTAssertEqual(trace.items[1].events.count, 495)
        XCTAssertEqual(trace.items[2].events.count, 495)
        XCTAssertEqual(trace.items[2].events.map(\.startNanoseconds).max(), 494, "the earliest events are kept")
        var small = PerfettoTrace()
        small.add(item("a", events: 3))
        XCTAssertEqual(small.cap(at: 1_000), 0)
    }

    func testTheWindowKeepsWhatStartsInside() {
        var trace = PerfettoTrace()
        trace.add(item("a", events: 100))
        trace.restrict(to: 10..<20)
        XCTAssertEqual(trace.items[0].events.map(\.startNanoseconds), Array(10..<20))
    }

    /// The bytes start with a `Trace.packet` field (1, length-delimited) and are the same for the
    /// same events; overlapping slices of one actor do not break the encoding.
    func testEncodingIsAProtobufTraceAndRepeatable() {
        var trace = PerfettoTrace()
        trace.add(
            ItemTrace(
                scenario: "s",
                variant: "v",
                mode: "sim",
                seed: 1,
                repetition: 0,
                events: [
                    .slice("a", on: "main", start: 0, duration: 10), .slice("b", on: "main", start: 5, duration: 10),
                    .counter("rows", unit: "rows", at: 3, value: 2.5), .instant("x", on: "display", at: 7),
                ]
            )
        )
        let bytes = trace.encoded()
        XCTAssertEqual(bytes.first, 0x0A, "field 1, wire type 2")
        XCTAssertEqual(bytes, trace.encoded())
    }
}
