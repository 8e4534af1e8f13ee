import XCTest

@testable import Timelines

/// `--perfetto` draws a stretch of idle frames on a track as one slice, `idle, N frames` with
/// `frames` = N, decoded from the encoded trace; frames that do work stay slices, and whatever
/// else happens on the track between two frames ends the stretch.
final class IdleFrameStretchTests: XCTestCase {
    let period: Int64 = 16_000_000, frameCost: Int64 = 4_000_000

    func item(_ events: [TraceEvent], runs: [SliceRun] = []) -> ItemTrace {
        ItemTrace(scenario: "s", variant: "v", mode: "sim", seed: 1, repetition: 0, events: events, runs: runs)
    }

    func idleFrames(_ range: Range<Int>, on track: String = "main") -> [TraceEvent] {
        range.map { .slice("frame", on: track, start: Int64($0) * period, duration: frameCost) }
    }

    /// The main track's slices as a trace processor reads them: name, start, annotation, value.
    func mainSlices(_ item: ItemTrace) throws -> [(name: String, time: UInt64, annotation: String?, value: Double?)] {
        var trace = PerfettoTrace()
        trace.add(item)
        return try DecodedPerfettoTrace(trace.encoded()).events
            .filter { $0.track == "main" && $0.type == 1 }
            .map { ($0.name ?? "", $0.time, $0.annotation, $0.value) }
    }

    func testAStretchOfIdleFramesIsOneSliceWithItsCount() throws {
        let frames = 250
        let events = idleFrames(0..<frames) + [.slice("tap", on: "worker 1", start: 5 * period + 1, duration: 3 * period)]
        let slices = try mainSlices(item(events))
        XCTAssertEqual(slices.count, 1)
        XCTAssertEqual(slices.first?.name, "idle, \(frames) frames")
        XCTAssertEqual(slices.first?.time, 0)
        XCTAssertEqual(slices.first?.annotation, "frames")
        XCTAssertEqual(slices.first?.value, Double(frames))
        // It lasts from the first frame's start to the last frame's end.
        let collapsed = item(events).collapsingIdleFrames().events.filter { $0.track == "main" }
        XCTAssertEqual(collapsed.map(\.durationNanoseconds), [Int64(frames - 1) * period + frameCost])
    }

    /// A frame that did work (its value: the rows it applied) stays a `frame` slice and splits the
    /// stretch; so does any other slice or instant on the track. Control for the test above: the
    /// same 250 frames with one working frame inside are two stretches and that frame.
    func testAWorkingFrameInsideTheStretchSplitsIt() throws {
        var events = idleFrames(0..<250)
        events[100].value = 12
        let slices = try mainSlices(item(events))
        XCTAssertEqual(slices.map(\.name), ["idle, 100 frames", "frame", "idle, 149 frames"])
        XCTAssertEqual(slices.map(\.value), [100, 12, 149])
        XCTAssertEqual(slices.map(\.annotation), ["frames", "value", "frames"])
        XCTAssertEqual(slices.map(\.time), [0, UInt64(100 * period), UInt64(101 * period)])

        let tapped = idleFrames(0..<10) + [.instant("missed frame", on: "main", at: 5 * period - 1)]
        XCTAssertEqual(try mainSlices(item(tapped)).map(\.name), ["idle, 5 frames", "idle, 5 frames"])
    }

    /// A lone idle frame (between two working slices) stays a `frame`; frames on another track
    /// are their own stretch; `--events` still lists every frame.
    func testALoneFrameStaysAndTracksAreApart() throws {
        let events: [TraceEvent] =
            [.slice("tap", on: "main", start: 0, duration: period)]
            + [.slice("frame", on: "main", start: period, duration: frameCost)]
            + [.slice("tap", on: "main", start: 2 * period, duration: period)]
            + idleFrames(3..<6, on: "render")
        let collapsed = item(events).collapsingIdleFrames().events
        XCTAssertEqual(collapsed.map(\.name), ["tap", "frame", "tap", "idle, 3 frames"])
        XCTAssertEqual(collapsed.last?.track, "render")
        XCTAssertEqual(item(events).timelineRecords.count, events.count)
    }

    /// Frames held as a run (bench-group's idle main thread) and frames as events next to it make
    /// one stretch, the same as all of them as events; the trace is the same bytes either way.
    func testARunAndItsNeighbouringFramesAreOneStretch() throws {
        let tap: TraceEvent = .slice("tap", on: "main", start: 20 * period + 1, duration: period)
        let run = SliceRun("frame", on: "main", start: 0, period: period, duration: frameCost, count: 15, position: 0)
        let events = idleFrames(15..<20) + [tap]
        let withRun = item(events, runs: [run])
        var expanded = withRun
        expanded.expandRuns()
        XCTAssertEqual(try mainSlices(withRun).map(\.name), ["idle, 20 frames", "tap"])
        var a = PerfettoTrace(), b = PerfettoTrace()
        a.add(withRun)
        b.add(expanded)
        XCTAssertEqual(a.encoded(), b.encoded())
        // `--events` rows are the frames one by one, as before.
        XCTAssertEqual(withRun.timelineRecords.count, 21)
    }

    /// Each count's name is `idle, N frames`, made once, by index below `direct` and hashed from it on.
    func testStretchNamesAreSpelledAndSharedOnEitherSideOfTheDirectRange() {
        var names = ItemTrace.IdleStretchNames()
        let direct = ItemTrace.IdleStretchNames.direct
        for frames in [2, 3, 2, direct - 1, direct, direct + 1, 100_000, 3, direct] {
            XCTAssertEqual(names.name(frames).string, "idle, \(frames) frames")
        }
        // Control: a count's name is not a neighbour's.
        XCTAssertNotEqual(names.name(direct - 1), names.name(direct))
        XCTAssertNotEqual(names.name(12), names.name(21))
    }
}
