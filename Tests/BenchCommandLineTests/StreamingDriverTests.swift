import BenchCommandLine
import Foundation
import Measurement
import Records
import Synchronization
import XCTest

/// How many samples are alive at once, and the most that ever were.
private let aliveSamples = Mutex((alive: 0, peak: 0))

/// A sample's payload that counts itself while it lives.
private final class Counted: Sendable {
    init() {
        aliveSamples.withLock {
            $0.alive += 1
            $0.peak = max($0.peak, $0.alive)
        }
    }
    deinit { aliveSamples.withLock { $0.alive -= 1 } }
}

/// A workload of `count` seeds whose samples count themselves.
private protocol CountingWorkload: Workload where Item == Int {
    var count: Int { get }
}

private struct CountedSample: Sendable {
    var payload = Counted()
}

extension CountingWorkload {
    static var catalogue: WorkloadCatalogue { WorkloadCatalogue(sections: []) }
    var factorNames: [String] { [] }
    var items: [Int] { Array(0..<count) }
    func label(_ item: Int) -> String { "seed \(item)" }
    func timing(_ item: Int) -> ItemTiming { .virtual }
    var parameters: [String: JSONValue] { [:] }
    func observations(for item: Int, sample: Sample) -> [LabelledObservations] {
        [
            LabelledObservations(
                scenario: "s",
                variant: "v",
                mode: "sim",
                seed: UInt64(item),
                repetition: item,
                observations: [Observation("m", Double(item % 7), "u")]
            )
        ]
    }
}

/// Folds every item into a count of items: keeps nothing per item.
private struct ItemCountingWorkload: CountingWorkload, FoldingWorkload {
    static let name = "item-counting"
    let count: Int
    func run(_ item: Int) throws -> CountedSample { CountedSample() }
    var emptyAggregate: Int { 0 }
    func aggregate(_ total: inout Int, _ finished: FinishedItem<Int, CountedSample>) { total += 1 }
    func report(_ total: Int, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        WorkloadReport(table: "", notes: ["items \(total)", "median \(summaries.first?.median ?? .nan) of \(summaries.first?.count ?? 0)"])
    }
}

/// The default aggregate: every finished item, the way every workload worked before.
private struct KeepingWorkload: CountingWorkload, ItemKeepingWorkload {
    static let name = "keeping"
    let count: Int
    func run(_ item: Int) throws -> CountedSample { CountedSample() }
    func report(_ results: [FinishedItem<Int, CountedSample>], complete: Bool) throws -> WorkloadReport {
        WorkloadReport(table: "", notes: ["items \(results.count)"])
    }
}

/// The one variant the counting workloads' records name.
private struct OneVariant: BuiltInVariants {
    static let builtIn = [OneVariant()]
    var info: VariantInfo { VariantInfo(name: "v", origin: .reference, summary: "the only variant") }
}

/// The driver takes each item to disk and into the aggregate as it finishes: with a folding
/// aggregate no more samples are alive at once for 200 seeds than for 2, and every
/// record still reaches the files and the summaries.
final class StreamingDriverTests: XCTestCase {
    func run<W: Workload>(_ make: @autoclosure () -> W) throws -> (peak: Int, document: RunDocument) {
        let folder = NSTemporaryDirectory() + "patternbench-driver-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let common = try CommonOptions.parse(["--output", folder, "--quiet", "--jobs", "1"])
        aliveSamples.withLock { $0 = (0, 0) }
        let workload = make()
        try WorkloadDriver.run(W.self, common: common) { (_: WorkloadEnvironment<OneVariant>) in workload }
        let peak = aliveSamples.withLock { $0.peak }
        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(W.name).json")))
        return (peak, document)
    }

    func testAFoldingWorkloadHoldsNoMoreSamplesForMoreSeeds() throws {
        let few = try run(ItemCountingWorkload(count: 2))
        let many = try run(ItemCountingWorkload(count: 200))
        // With --jobs 1 the scheduler lets at most 2 items be in flight or undelivered (its room),
        // and the batch the driver is delivering holds as many again: 4 at most, however many seeds.
        XCTAssertLessThanOrEqual(few.peak, 2)
        XCTAssertLessThanOrEqual(many.peak, 4, "samples alive at once must not grow with seeds")
        XCTAssertEqual(many.document.records.count, 200)
        XCTAssertEqual(many.document.records.map(\.seed), (0..<200).map(UInt64.init), "in matrix order")
        XCTAssertEqual(many.document.summaries.first?.count, 200)
        XCTAssertEqual(many.document.notes, ["items 200", "median 3.0 of 200"], "the report saw every item and the summaries")
    }

    /// Control: the default aggregate keeps every sample, so the count grows with the seeds —
    /// what the item-counting workload's bound above would catch.
    func testTheDefaultAggregateKeepsEverySample() throws {
        let many = try run(KeepingWorkload(count: 200))
        XCTAssertEqual(many.peak, 200)
        XCTAssertEqual(many.document.notes, ["items 200"])
    }
}
