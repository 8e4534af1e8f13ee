import XCTest

@testable import BenchCommandLine

/// Progress read through an injected clock: what a terminal and a log see, and when.
final class ProgressTests: XCTestCase {
    final class Capture {
        var now = 0.0
        var lines: [String] = []
    }

    func progress(_ capture: Capture, total: Int, quiet: Bool = false, terminal: Bool) -> BenchCommandLine.Progress {
        BenchCommandLine.Progress(
            total: total,
            quiet: quiet,
            name: "bench-atomics",
            isTerminal: terminal,
            now: { capture.now },
            emit: { capture.lines.append($0) }
        )
    }

    func testLogGetsALineAboutEveryTenSecondsWithElapsedAndETA() {
        let c = Capture()
        var p = progress(c, total: 160, terminal: false)
        for i in 1...160 {
            c.now = Double(i) * 0.625  // 100 s in all
            p.advance("cell \(i)")
        }
        p.finish()
        // 16 items take 10 s: a line at items 16, 32, ... 160, and the last line.
        XCTAssertEqual(c.lines.count, 11)
        XCTAssertEqual(c.lines[0], "bench-atomics: 16/160 items (10%), 0:10 elapsed, ETA 1:30 (last: cell 16)\n")
        XCTAssertEqual(c.lines[4], "bench-atomics: 80/160 items (50%), 0:50 elapsed, ETA 0:50 (last: cell 80)\n")
        XCTAssertEqual(c.lines.last, "bench-atomics: 160/160 items, 1:40 elapsed\n")
        XCTAssertTrue(c.lines.allSatisfy { !$0.contains("\r") }, "no redrawing in a log")
    }

    func testShortRunInALogStaysSilent() {
        // Control for the above: the lines come from the clock, not from the item count.
        let c = Capture()
        var p = progress(c, total: 160, terminal: false)
        for i in 1...160 {
            c.now = Double(i) * 0.05
            p.advance("cell")
        }
        p.finish()
        XCTAssertEqual(c.lines, [])
    }

    func testTerminalRedrawsEveryItemWithElapsedAndETA() {
        let c = Capture()
        var p = progress(c, total: 4, terminal: true)
        c.now = 30
        p.advance("a")
        XCTAssertEqual(c.lines, ["\r[######..................] 1/4 items (25%), 0:30 elapsed, ETA 1:30 a\u{1B}[K"])
        c.now = 3_700
        p.advance("b")
        XCTAssertTrue(c.lines[1].contains("2/4 items (50%), 1:01:40 elapsed, ETA 1:01:40 b"), c.lines[1])
        p.finish()
        XCTAssertEqual(c.lines.last, "\r\u{1B}[K")
    }

    /// `--quiet`: nothing on stderr, neither when items finish nor from the ticks in between.
    func testQuietStaysQuiet() {
        for terminal in [true, false] {
            let c = Capture()
            var p = progress(c, total: 3, quiet: true, terminal: terminal)
            for step in 1...300 {
                c.now = Double(step)
                if step % 100 == 0 { p.advance("x") } else { p.tick() }
            }
            p.finish()
            XCTAssertEqual(c.lines, [], "terminal: \(terminal)")
        }
    }

    func testLogGetsALineEveryTenSecondsWhileOneLongItemRuns() {
        // A line only when an item finished left a log silent for as long as the longest
        // item. The driver ticks while it waits; the ticks alone bring the lines.
        let c = Capture()
        var p = progress(c, total: 3, terminal: false)
        c.now = 2
        p.advance("short")
        for step in 1...1_700 {  // a tick every 20 ms, 34 s in all, no item finishing
            c.now = 2 + Double(step) * 0.02
            p.tick()
        }
        XCTAssertEqual(
            c.lines,
            [
                "bench-atomics: 1/3 items (33%), 0:10 elapsed, ETA 0:20 (last: short)\n",
                "bench-atomics: 1/3 items (33%), 0:20 elapsed, ETA 0:40 (last: short)\n",
                "bench-atomics: 1/3 items (33%), 0:30 elapsed, ETA 1:00 (last: short)\n",
            ]
        )
    }

    func testWithoutTicksALongItemLeavesTheLogSilent() {
        // Control for the above: the same run with only `advance` says nothing for 34 s.
        let c = Capture()
        var p = progress(c, total: 3, terminal: false)
        c.now = 2
        p.advance("short")
        c.now = 36
        XCTAssertEqual(c.lines, [])
        p.advance("long")
        XCTAssertEqual(c.lines, ["bench-atomics: 2/3 items (66%), 0:36 elapsed, ETA 0:18 (last: long)\n"])
    }

    func testALineBeforeAnyItemFinishedHasNoETA() {
        let c = Capture()
        var p = progress(c, total: 5, terminal: false)
        c.now = 12
        p.tick()
        XCTAssertEqual(c.lines, ["bench-atomics: 0/5 items (0%), 0:12 elapsed\n"])
    }

    func testTerminalBarMovesOnceASecondWhileAnItemRuns() {
        let c = Capture()
        var p = progress(c, total: 4, terminal: true)
        for step in 1...150 {  // 3 s of ticks
            c.now = Double(step) * 0.02
            p.tick()
        }
        XCTAssertEqual(c.lines.count, 3)
        XCTAssertEqual(c.lines.last, "\r[........................] 0/4 items (0%), 0:03 elapsed \u{1B}[K")
    }
}
