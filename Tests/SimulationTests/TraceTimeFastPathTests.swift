import XCTest

@testable import Simulation

/// The CSV reader's integer fast path for `time_ms` gives exactly the general path's instant
/// (a correctly rounded `Double` of milliseconds, times 10^6, rounded), and leaves every other
/// spelling to the general path.
final class TraceTimeFastPathTests: XCTestCase {
    func general(_ text: String) -> Int64 {
        (SimInstant.zero + .milliseconds(StrictNumber.decimal(text)!)).nanoseconds
    }

    func testFastPathEqualsTheGeneralPath() {
        var generator = SeededGenerator(seed: 11)
        var checked = 0
        for _ in 0..<200_000 {
            let whole = generator.next() % 1_000_000_000
            let decimals = Int(generator.next() % 7)
            var text = "\(whole)"
            if decimals > 0 {
                let fraction = generator.next() % UInt64(pow(10, Double(decimals)))
                let digits = String(fraction)
                text += "." + String(repeating: "0", count: decimals - digits.count) + digits
            }
            var utf8 = Array(text.utf8)
            let fast = utf8.withUnsafeMutableBufferPointer { TraceLineParser.plainNanoseconds(UnsafeBufferPointer($0)) }
            XCTAssertEqual(fast, general(text), text)
            checked += 1
        }
        XCTAssertEqual(checked, 200_000)
    }

    func testOtherSpellingsGoToTheGeneralPath() {
        for text in ["1e3", "-1", "+1", "1.2345678", "1.", ".5", "1234567890", "", "1,5", "0x10"] {
            var utf8 = Array(text.utf8)
            let fast = utf8.withUnsafeMutableBufferPointer { TraceLineParser.plainNanoseconds(UnsafeBufferPointer($0)) }
            XCTAssertNil(fast, text)
        }
        // The control: the fast path does take the plain spellings.
        var plain = Array("12.5".utf8)
        XCTAssertEqual(plain.withUnsafeMutableBufferPointer { TraceLineParser.plainNanoseconds(UnsafeBufferPointer($0)) }, 12_500_000)
    }

    func testParsedTracesUseEitherPathAlike() throws {
        // Fast, general (exponent), fast, general (seven decimals); time zero is not applied here.
        let commits = try TraceReader.parse("time_ms,rows\n0.000001,1\n1e1,3\n12.5,2\n13.0000001,4\n")
        XCTAssertEqual(commits.map(\.time.nanoseconds), [1, 10_000_000, 12_500_000, 13_000_000])
    }
}
