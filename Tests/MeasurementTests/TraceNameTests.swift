import Foundation
import XCTest

@testable import Timelines

/// Interned names (`TraceName`): equal text, equal name, however it was made (a literal, a string
/// built at run time, on any thread); other text, another name; and an event that holds them is
/// plain bytes, which is what makes freeing a run's events cost nothing.
final class TraceNameTests: XCTestCase {
    func testALiteralAndAStringOfTheSameTextAreOneName() {
        let literal: TraceName = "trace-name-tests frame"
        let built = TraceName("trace-name-tests " + ["fr", "ame"].joined())
        XCTAssertEqual(literal, built)
        XCTAssertEqual(literal.string, "trace-name-tests frame")
        // The literal again (found by its address now) and the string again (by its characters).
        XCTAssertEqual(literal, "trace-name-tests frame")
        XCTAssertEqual(TraceName(String(built.string)), literal)
        XCTAssertEqual(Array(literal.utf8), Array("trace-name-tests frame".utf8))
    }

    /// Control: another text is another name, however close.
    func testAnotherTextIsAnotherName() {
        let names = ["trace-name-tests a", "trace-name-tests b", "trace-name-tests a ", "", "é", "e\u{301}"].map(TraceName.init)
        XCTAssertEqual(Set(names).count, names.count - 1)  // "é" and "e\u{301}" are one String, so one name
        XCTAssertEqual(names[4], names[5])
        XCTAssertNotEqual(names[0], names[1])
        XCTAssertNotEqual(names[0], names[2])
        XCTAssertEqual(names[3].string, "")
        XCTAssertEqual(names[3].utf8.count, 0)
    }

    /// Names made on many threads at once, each text by several: one name per text, and every
    /// thread reads every text back.
    func testNamesMadeConcurrentlyAgree() {
        let texts = (0..<500).map { "trace-name-tests concurrent \($0)" }
        let threads = 8
        let buffer = UnsafeMutableBufferPointer<TraceName?>.allocate(capacity: threads * texts.count)
        buffer.initialize(repeating: nil)
        defer { buffer.deallocate() }
        // Each thread writes its own slots only.
        nonisolated(unsafe) let results = buffer
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for (k, text) in texts.enumerated().shuffled() {
                let name = TraceName(text)
                XCTAssertEqual(name.string, text)
                results[t * texts.count + k] = name
            }
        }
        for k in texts.indices {
            let first = results[k]
            for t in 1..<threads { XCTAssertEqual(results[t * texts.count + k], first) }
        }
        XCTAssertEqual(Set((0..<texts.count).compactMap { results[$0] }).count, texts.count)
    }

    /// The layout the encoder and the run's memory rely on: an event is 40 bytes and holds no
    /// reference, so an array of them is freed without a pass over it.
    func testAnEventIsPlainBytes() {
        XCTAssertTrue(_isPOD(TraceEvent.self))
        XCTAssertEqual(MemoryLayout<TraceEvent>.size, 40)
        XCTAssertTrue(_isPOD(SliceRun.self))
        XCTAssertTrue(_isPOD(NumberedName.self))
        // Control: a struct holding a string, as an event once did, is not.
        struct WithString { var name: String }
        XCTAssertFalse(_isPOD(WithString.self))
    }

    func testAnEventReadsAndRenamesItsNames() {
        var event = TraceEvent.slice("trace-name-tests slice", on: "trace-name-tests track", start: 5, duration: 2)
        XCTAssertEqual(event.name, "trace-name-tests slice")
        XCTAssertEqual(event.track, "trace-name-tests track")
        let runtime = "trace-name-tests \(Int.random(in: 0..<1_000_000)) renamed"
        event.name = runtime
        event.track = runtime + " track"
        XCTAssertEqual(event.name, runtime)
        XCTAssertEqual(event.track, runtime + " track")
        XCTAssertEqual(event, .slice(TraceName(runtime), on: TraceName(runtime + " track"), start: 5, duration: 2))
        // Control: same names, another time.
        XCTAssertNotEqual(event, .slice(TraceName(runtime), on: TraceName(runtime + " track"), start: 6, duration: 2))
    }

    /// An event's coding is its names as text, as before they were interned.
    func testCodingWritesTheText() throws {
        let event = TraceEvent.instant("trace-name-tests coded", on: "main", at: 7, value: 1.5)
        let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        XCTAssertTrue(json.contains("\"name\":\"trace-name-tests coded\""), json)
        XCTAssertTrue(json.contains("\"track\":\"main\""), json)
        XCTAssertEqual(try JSONDecoder().decode(TraceEvent.self, from: Data(json.utf8)), event)
        let run = SliceRun("frame", on: "main", start: 0, period: 16, duration: 4, count: 3, position: 0)
        let runJSON = try JSONEncoder().encode(run)
        XCTAssertTrue(String(decoding: runJSON, as: UTF8.self).contains("\"track\":\"main\""))
        XCTAssertEqual(try JSONDecoder().decode(SliceRun.self, from: runJSON), run)
    }
}
