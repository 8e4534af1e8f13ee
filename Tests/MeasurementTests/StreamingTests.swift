import Foundation
import Records
import TestSupport
import XCTest

/// The streamed results and trace are the bytes the whole-run writers produce, in bounded memory.
final class StreamingTests: XCTestCase {
    /// Records of 3 scenarios × 2 variants × `seeds` seeds × 4 metrics, values with ties, NaN and
    /// fractions whose sum depends on the order of its terms.
    func records(seeds: Int) -> [ResultRecord] {
        var out: [ResultRecord] = []
        for seed in 0..<seeds {
            for scenario in ["a", "b,c", "d\"e"] {
                for variant in ["v1", "v2"] {
                    for (m, metric) in ["p50", "count", "ratio", "odd"].enumerated() {
                        let value: Double =
                            metric == "odd" && seed == 3 ? .nan : Double((seed * 7919 + m * 104_729) % 97) / 3 + 0.1
                        out.append(
                            ResultRecord(
                                runID: "run",
                                workload: "stream",
                                scenario: scenario,
                                variant: variant,
                                mode: "sim",
                                seed: UInt64(seed),
                                repetition: seed,
                                metric: metric,
                                value: value,
                                unit: "u",
                                host: "h",
                                factors: ["threads": "\(seed % 2 + 1)"],
                                origin: "builtin"
                            )
                        )
                    }
                }
            }
        }
        return out
    }

    /// The summaries read back in passes of at most `budget` values are `Statistics.summarize`'s,
    /// bit for bit, and never hold more than the budget (a group larger than it alone).
    func testSummariesEqualSummarizeWhileHoldingAtMostTheBudget() throws {
        let all = records(seeds: 40)
        let expected = Statistics.summarize(all)
        for budget in [1, 50, 1_000, 1 << 20] {
            var accumulator = try SummaryAccumulator(spoolIn: try temporaryFolder("patternbench-stream"), name: "t", budget: budget)
            for r in all { try accumulator.add(r) }
            let rows = try accumulator.summaries()
            XCTAssertEqual(rows.count, expected.count)
            for (a, b) in zip(rows, expected) {
                XCTAssertEqual(a.count, b.count)
                for (x, y) in [(a.median, b.median), (a.mean, b.mean), (a.min, b.min), (a.max, b.max)] {
                    XCTAssertEqual(x.bitPattern, y.bitPattern, "\(a.scenario) \(a.metric) budget \(budget)")
                }
                XCTAssertEqual([a.scenario, a.variant, a.mode, a.metric, a.unit], [b.scenario, b.variant, b.mode, b.metric, b.unit])
                XCTAssertEqual(a.factors, b.factors)
            }
            // Each group holds 20 values here (40 seeds over 2 factor values).
            XCTAssertLessThanOrEqual(accumulator.peakHeldValues, max(budget, 20), "budget \(budget)")
        }
    }

    /// Control: the bound is real — with the default budget a run this size is one pass holding
    /// every value, which the small budgets above do not.
    func testTheDefaultBudgetHoldsASmallRunInOnePass() throws {
        let all = records(seeds: 40)
        var accumulator = try SummaryAccumulator(spoolIn: try temporaryFolder("patternbench-stream"), name: "t")
        for r in all { try accumulator.add(r) }
        _ = try accumulator.summaries()
        XCTAssertEqual(accumulator.peakHeldValues, all.count)
    }

    /// The streamed CSV and JSON are byte for byte what `ResultsFolder.write` writes for the whole
    /// document, with and without records.
    func testStreamedFilesAreTheWholeDocumentsBytes() throws {
        for count in [0, 1, 7] {
            let all = records(seeds: count)
            let whole = try temporaryFolder("patternbench-stream")
            let streamed = try temporaryFolder("patternbench-stream")
            let summaries = Statistics.summarize(all)
            // Read once: the metadata holds the host's load at the moment it is read, which moves
            // between two reads (both files must hold the same document).
            let metadata = RunMetadata.current(parameters: ["x": .number(1)])
            func document(_ records: [ResultRecord], _ summaries: [SummaryRow]) -> RunDocument {
                RunDocument(
                    runID: "run",
                    workload: "stream",
                    createdUTC: "2026-01-01T00:00:00Z",
                    metadata: metadata,
                    factorNames: ["threads"],
                    records: records,
                    summaries: summaries,
                    notes: ["a note"],
                    plannedItems: 3,
                    completedItems: 3
                )
            }
            try ResultsFolder(path: whole).write(document(all, summaries))
            var stream = try ResultsStream(folder: ResultsFolder(path: streamed), workload: "stream", factorNames: ["threads"])
            // In uneven batches, as items contribute them.
            var rest = all[...]
            while !rest.isEmpty {
                let n = min(rest.count, rest.count % 5 + 1)
                try stream.add(Array(rest.prefix(n)))
                rest = rest.dropFirst(n)
            }
            try stream.write(document([], try stream.summaries()))
            for name in ["stream.csv", "stream.json"] {
                let a = try Data(contentsOf: URL(fileURLWithPath: "\(whole)/\(name)"))
                let b = try Data(contentsOf: URL(fileURLWithPath: "\(streamed)/\(name)"))
                XCTAssertEqual(a, b, "\(name) with \(all.count) records")
            }
            let decoded = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: "\(streamed)/stream.json"))).records
            XCTAssertEqual(decoded.map(\.value.bitPattern), all.map(\.value.bitPattern), "NaN included")
            let left = try FileManager.default.contentsOfDirectory(atPath: streamed).filter { $0.hasSuffix(".tmp") }
            XCTAssertEqual(left, [], "no spool or staged file is left behind")
        }
    }
}
