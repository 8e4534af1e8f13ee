import Simulation
import XCTest

@testable import Timekeeping

final class SkewFileReaderTests: XCTestCase {
    func error(_ text: String) -> InputFileError? {
        do {
            _ = try SkewFileReader.parse(text, path: "s.csv")
            return nil
        } catch {
            return error
        }
    }

    func testReadsEveryKind() throws {
        let events = try SkewFileReader.parse(
            """
            at_s,kind,value,duration_s
            # comments and blank lines are skipped

            10,step,-1,
            20,slew,500,30
            60,suspend,,5
            0,drift,50,
            """.replacingOccurrences(of: "0,drift,50,", with: "70,drift,50,"),
            path: "s.csv"
        )
        XCTAssertEqual(
            events,
            [.step(at: 10, by: -1), .slew(at: 20, ppm: 500, for: 30), .suspend(at: 60, for: 5), .drift(at: 70, ppm: 50)]
        )
    }

    func testErrorsNameLineAndField() {
        let header = "at_s,kind,value,duration_s\n"
        let cases: [(String, Int?, String?, String)] = [
            ("", nil, nil, "is empty"),
            ("at,kind\n1,step,1,", 1, nil, "expected header"),
            (header, nil, nil, "no events"),
            (header + "1,step,1", 2, nil, "expected 4 fields"),
            (header + "x,step,1,", 2, "at_s", "not a number"),
            (header + "1,jump,1,", 2, "kind", "not one of"),
            (header + "1,step,nan,", 2, "value", "finite"),
            (header + "1,step,inf,", 2, "value", "finite"),
            (header + "1,slew,-inf,10", 2, "value", "finite"),
            (header + "1,slew,1000001,10", 2, "value", "beyond ±1000000 ppm"),
            (header + "1,slew,-1000000.5,10", 2, "value", "beyond ±1000000 ppm"),
            (header + "1,slew,500,", 2, "duration_s", "is empty"),
            (header + "1,slew,500,0", 2, "duration_s", "needs a duration"),
            (header + "1,step,1,5", 2, "duration_s", "instantaneous"),
            (header + "1,step,0,", 2, "value", "non-zero"),
            (header + "-1,step,1,", 2, "at_s", "≥ 0"),
            (header + "1,suspend,3,5", 2, "value", "takes no value"),
            (header + "5,step,1,\n4,step,1,", 3, "at_s", "sorted"),
            (header + "1,slew,5,10\n2,slew,5,10", 3, "at_s", "overlaps another slew"),
            (header + "1,suspend,,10\n2,step,1,", 3, "at_s", "overlaps a suspend"),
            (header + "1,step,1e300,", 2, "value", "beyond ±100 years"),
        ]
        for (text, line, field, message) in cases {
            guard let e = error(text) else {
                XCTFail("accepted: \(text)")
                continue
            }
            XCTAssertEqual(e.line, line, text)
            XCTAssertEqual(e.field, field, text)
            XCTAssertTrue(e.message.contains(message), "\(text) → \(e.message)")
            XCTAssertFalse(e.description.contains("\n"))
        }
    }

    func testMissingFileAndDirectory() {
        XCTAssertThrowsError(try SkewFileReader.read(path: "/nonexistent/skew.csv")) { error in
            XCTAssertEqual((error as? InputFileError)?.message, "no such file")
        }
        XCTAssertThrowsError(try SkewFileReader.read(path: NSTemporaryDirectory()))
    }

    func testAcceptsTheLimits() throws {
        let events = try SkewFileReader.parse("at_s,kind,value,duration_s\n1,slew,-1000000,10\n20,slew,1000000,10\n", path: "s.csv")
        XCTAssertEqual(events.count, 2)
        // ppm −1 000 000 stops the slewed clocks: still no trap, and a timeout on them never fires.
        let scenario = SkewScenario.fromFile(name: "limits", events: events)
        let schedule = ClockSchedule(scenario: scenario)
        for client in ClientKind.allCases {
            for kind in ClockKind.allCases {
                _ = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 1)
            }
        }
    }
}
