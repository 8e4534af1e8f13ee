import Simulation
import XCTest

@testable import Timekeeping

/// `ExactRounding.nearest` must equal `rounded()` (up to the sign of a zero) for every `Double`:
/// ties both ways, the largest value below one half, the edges of 2^52, huge values, NaN and the
/// infinities, and a million seeded values across the magnitudes the clocks use.
final class ExactRoundingTests: XCTestCase {
    private func assertMatches(_ x: Double, file: StaticString = #filePath, line: UInt = #line) {
        let expected = x.rounded(), got = ExactRounding.nearest(x)
        if expected.isNaN {
            XCTAssertTrue(got.isNaN, "\(x)", file: file, line: line)
        } else {
            XCTAssertEqual(got, expected, "\(x)", file: file, line: line)  // +0 == −0
        }
    }

    func testEdgeCases() {
        var cases: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.5.nextDown, -(0.5.nextDown), 0.5.nextUp]
        for e in [0x1p51, 0x1p52, 0x1p53, 0x1p63, 9.2e18, 1e300] {
            for v in [e, e.nextDown, e.nextUp, e - 0.5, e + 0.5, e - 1.5] { cases += [v, -v] }
        }
        cases += [.infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        for x in cases { assertMatches(x) }
    }

    func testSeededValues() {
        var generator = SeededGenerator(seed: 52)
        for _ in 0..<1_000_000 {
            let exponent = Double(Int64.random(in: -4...60, using: &generator))
            let x = Double.random(in: -1...1, using: &generator) * Double(sign: .plus, exponent: Int(exponent), significand: 1)
            assertMatches(x)
            assertMatches(x.rounded(.down) + 0.5)  // an exact tie where one exists
        }
    }

    /// The control: the naive `trunc(x + 0.5)` fails on the largest value below one half, which
    /// is why the bias is 0.5 − 2^−54.
    func testNaiveBiasFails() {
        let x = 0.5.nextDown
        XCTAssertNotEqual(Double(Int64(x + 0.5)), x.rounded())
        XCTAssertEqual(ExactRounding.nearest(x), x.rounded())
    }
}
