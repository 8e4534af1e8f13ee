import Simulation
import XCTest

@testable import Caching

/// The radix sort behind the latency percentiles must give exactly `sort()`'s array: one, two and
/// three passes, negative values, a span past the radix limit, all-equal and short arrays.
final class LatencySortTests: XCTestCase {
    func testMatchesTheStandardSortForEverySpan() {
        var generator = SeededGenerator(seed: 20)
        let spans: [Int64] = [1, 1_500, 300_000, 5_000_000_000, 1 << 40, .max / 2]
        for span in spans {
            for count in [0, 1, 255, 256, 10_000] {
                var values = (0..<count).map { _ in Int64.random(in: -span / 3...span, using: &generator) }
                let expected = values.sorted()
                if count > 1, span > 1 { XCTAssertNotEqual(values, expected, "the input must start unsorted") }
                LatencySort.sort(&values)
                XCTAssertEqual(values, expected, "span \(span), count \(count)")
            }
        }
    }

    func testExtremesAndEqualValues() {
        var values = [Int64](repeating: 7, count: 1_000)
        LatencySort.sort(&values)
        XCTAssertEqual(values, [Int64](repeating: 7, count: 1_000))
        values = (0..<1_000).map { $0 % 2 == 0 ? Int64.min : Int64.max }
        let expected = values.sorted()
        LatencySort.sort(&values)
        XCTAssertEqual(values, expected)
    }
}
