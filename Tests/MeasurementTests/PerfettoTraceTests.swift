import Records
import Timelines
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

    /// An event takes 40 bytes (its kind, number and names in the padding after the value's tag);
    /// control: the same fields with the kind declared first take 48.
    func testAnEventTakesFortyBytes() {
        struct KindFirst {
            var kind: TraceEvent.Kind
            var track: TraceName
            var name: TraceName
            var start: Int64
            var duration: Int64
            var value: Double?
            var numberAt: UInt16
            var number: Int32
        }
        XCTAssertEqual(MemoryLayout<TraceEvent>.stride, 40)
        XCTAssertEqual(MemoryLayout<KindFirst>.stride, 48)
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

/// `--perfetto` written item by item is the whole trace's encoding, and cuts only when asked.
final class PerfettoStreamTests: XCTestCase {
    func items() -> [ItemTrace] {
        (0..<4).map { i in
            var events: [TraceEvent] = []
            for t in 0..<(i * 300) {
                let time = Int64(t)
                events.append(.slice("load", on: "builder", start: time * 7 % 1000, duration: 50, value: Double(t)))
                events.append(.counter("rows", unit: "rows", at: time, value: Double(t % 9)))
                events.append(.instant("x", on: "display", at: 999 - time))
            }
            return ItemTrace(scenario: "s\(i)", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events)
        }
    }

    func stream(limit: Int?, window: Range<Int64>? = nil) throws -> (bytes: [UInt8], stream: PerfettoStream) {
        let path = NSTemporaryDirectory() + "patternbench-perfetto-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pftrace"
        addTeardownBlock { unlink(path) }
        var stream = PerfettoStream(file: try SpoolFile.staged(to: path, capacity: 4096), window: window, limit: limit)
        let all = items()
        for (i, item) in all.enumerated() { try stream.add([item], itemsLeft: all.count - i) }
        try stream.finish().commit()
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), stream)
    }

    func testTheStreamIsTheWholeTraceUncut() throws {
        var whole = PerfettoTrace()
        for item in items() { whole.add(item) }
        let (bytes, stream) = try stream(limit: nil)
        XCTAssertEqual(bytes, whole.encoded())
        XCTAssertEqual(stream.eventCount, whole.eventCount)
        XCTAssertEqual(stream.dropped, 0)
        var windowed = whole
        windowed.restrict(to: 100..<200)
        XCTAssertEqual(try self.stream(limit: nil, window: 100..<200).bytes, windowed.encoded())
    }

    /// With a limit, the total never exceeds it, small items keep everything, and what was
    /// dropped is counted (the driver reports it); control: the uncut stream is larger.
    func testALimitCutsToTheEarliestEventsAndCountsWhatItDropped() throws {
        let total = items().reduce(0) { $0 + $1.events.count }
        let (bytes, stream) = try stream(limit: 1_000)
        XCTAssertLessThanOrEqual(stream.eventCount, 1_000)
        XCTAssertGreaterThan(stream.eventCount, 900)
        XCTAssertEqual(stream.eventCount + stream.dropped, total)
        XCTAssertLessThan(bytes.count, try self.stream(limit: nil).bytes.count)
    }
}
