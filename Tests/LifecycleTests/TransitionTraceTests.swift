import Measurement
import XCTest

@testable import Lifecycle

/// A bad trace is one error naming the file and the line, exit 65.
final class TransitionTraceTests: XCTestCase {
    func message(_ text: String) -> String? {
        do {
            _ = try TransitionTrace.parse(text, name: "t.trace", profile: AppProfile(), seed: 1)
            return nil
        } catch {
            XCTAssertEqual(error.exitCode, 65)
            return error.message
        }
    }

    func testErrorsNameTheLine() {
        XCTAssertEqual(
            message("0 launch\n5 fly"),
            "t.trace:2: unknown transition 'fly' (known: \(Transition.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
        XCTAssertEqual(message("10 active"), "t.trace:1: the first transition must be 'launch', got 'active'")
        XCTAssertEqual(message("0 launch\n10 active\n5 edit"), "t.trace:3: time 5 ms is before the previous line's")
        XCTAssertEqual(message("# nothing\n"), "t.trace: no transitions (a trace starts with a 'launch' line)")
        XCTAssertEqual(message("0 launch\nx active"), "t.trace:2: time 'x' is not a number of ms between 0 and 1000000000000")
        XCTAssertEqual(message("0 launch\n-1 active"), "t.trace:2: time '-1' is not a number of ms between 0 and 1000000000000")
        XCTAssertEqual(message("0 launch extra"), "t.trace:1: expected '<time_ms> <transition>', got 3 fields")
    }

    func testSessionsSplitAtLaunchWithRelativeTimes() throws {
        let s = try TransitionTrace.parse(
            "# c\n0 launch\n100 active\n\n5000 launch # again\n5100 kill\n",
            name: "t",
            profile: AppProfile(),
            seed: 1
        )
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s[1].events.map(\.transition), [.launch, .kill])
        XCTAssertEqual(s[1].events[1].time.nanoseconds, 100_000_000)
    }
}
