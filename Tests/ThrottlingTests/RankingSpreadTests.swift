import Records
import XCTest

@testable import Throttling

/// The ranking bench-throttle prints shows n and the min–max beside each median.
final class RankingSpreadTests: XCTestCase {
    func testRankingShowsNAndSpread() throws {
        var records: [ResultRecord] = []
        for (seed, p99) in [(UInt64(1), 40.0), (2, 60.0)] {
            for (metric, value) in [("latency_p99_ms", p99), ("hitch_ms_per_s", 0.0)] {
                records.append(
                    ResultRecord(
                        runID: "r",
                        workload: "throttle",
                        scenario: "bursts",
                        variant: "immediate",
                        mode: "sim",
                        seed: seed,
                        repetition: 0,
                        metric: metric,
                        value: value,
                        unit: "ms",
                        host: "h"
                    )
                )
            }
        }
        let text = ThrottleRanking.render(records: records, scenarios: ["bursts"])
        let header = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("#") })
        XCTAssertTrue(header.contains(" n "), String(header))
        let row = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("immediate") })
        XCTAssertTrue(row.contains(" 2 "), String(row))
        XCTAssertTrue(row.contains("50.0 (40.0–60.0)"), String(row))
        XCTAssertTrue(row.contains(" 0 ") || row.hasSuffix(" 0"), "equal values: the median alone")
        XCTAssertTrue(text.contains("min–max where the seeds differ"), text)
    }
}
