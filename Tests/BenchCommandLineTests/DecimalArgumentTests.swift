import XCTest

@testable import BenchCommandLine

/// Number flags take plain decimals only: ArgumentParser's `Double(String)` would also read Swift's
/// hexadecimal float literals (`0x10` = 16, `0x1p-2` = 0.25), a number nobody meant to type.
final class DecimalArgumentTests: XCTestCase {
    func testPlainDecimalsParse() throws {
        for (text, value) in [("100", 100.0), ("0.5", 0.5), (".5", 0.5), ("+2", 2.0), ("-3", -3.0), ("1e-3", 0.001), ("2.5E2", 250.0)] {
            XCTAssertEqual(try decimalArgument(text), value, text)
        }
    }

    func testEverythingElseIsRefused() {
        for text in ["0x10", "0x1p-2", "nan", "inf", "-infinity", "", " 1", "1 ", "1,5", "1_000", "1e", "--1", "١٢"] {
            XCTAssertThrowsError(try decimalArgument(text), text)
        }
    }
}
