import XCTest

@testable import BenchCommandLine

/// `--seeds -1` reads as a missing value to ArgumentParser; the one line says what was given.
final class NegativeValueMessageTests: XCTestCase {
    func testANegativeNumberAfterAFlagIsNamed() {
        let message = BenchMain.negativeValueMessage(
            "Missing value for '--perfetto-limit <N>'",
            arguments: ["--quick", "--perfetto-limit", "-1"]
        )
        XCTAssertEqual(message, "--perfetto-limit got -1: negative values are not accepted")
        XCTAssertEqual(
            BenchMain.negativeValueMessage("Missing value for '--jobs <N>'", arguments: ["--jobs", "-2.5"]),
            "--jobs got -2.5: negative values are not accepted"
        )
    }

    /// The control: a value that really is missing, or a flag after the flag, keeps ArgumentParser's words.
    func testAReallyMissingValueIsLeftAlone() {
        XCTAssertNil(BenchMain.negativeValueMessage("Missing value for '--seeds <K>'", arguments: ["--seeds"]))
        XCTAssertNil(BenchMain.negativeValueMessage("Missing value for '--seeds <K>'", arguments: ["--seeds", "--quick"]))
        XCTAssertNil(BenchMain.negativeValueMessage("Unknown option '--nope'", arguments: ["--nope", "-1"]))
    }
}
