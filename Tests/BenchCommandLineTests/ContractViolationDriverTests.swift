import BenchCommandLine
import Foundation
import Measurement
import Records
import XCTest

/// A rule of no real role, for the driver's own test.
private let keepsItsWord = ContractRule(role: "test", statement: "every item keeps its word")

/// Three virtual-time items; the one at `breaking` (if any) breaks `keepsItsWord` after measuring.
private struct PromisingWorkload: ItemKeepingWorkload {
    static let name = "promising"
    static var catalogue: WorkloadCatalogue { WorkloadCatalogue(sections: []) }
    let breaking: Int?
    var factorNames: [String] { [] }
    var items: [Int] { [0, 1, 2] }
    var parameters: [String: JSONValue] { [:] }
    func label(_ item: Int) -> String { "item \(item)" }
    func timing(_ item: Int) -> ItemTiming { .virtual }
    func run(_ item: Int) throws -> Int {
        var check = ContractCheck()
        check.require(item != breaking, keepsItsWord, at: "its word at \(item) ms")
        check.require(item != breaking, keepsItsWord, at: "a later word")  // only the first is kept
        try check.verify()
        return item * 10
    }
    func observations(for item: Int, sample: Int) -> [LabelledObservations] {
        [
            LabelledObservations(
                scenario: "s",
                variant: "v\(item)",
                mode: "sim",
                seed: UInt64(item),
                repetition: 0,
                observations: [Observation("m", Double(sample), "u")]
            )
        ]
    }
    func report(_ results: [FinishedItem<Int, Int>], complete: Bool) throws -> WorkloadReport {
        WorkloadReport(table: results.map { "v\($0.item)" }.joined(separator: ","))
    }
}

/// The variants the records name.
private struct ThreeVariants: BuiltInVariants {
    static let builtIn = (0..<3).map { ThreeVariants(name: "v\($0)") }
    var name: String
    var info: VariantInfo { VariantInfo(name: name, origin: .reference, summary: "one of three") }
}

/// A `ContractViolation` thrown by an item's run fails that item only: it is listed under
/// `failed_items` with the rule and the first violating event, its rows reach no file and no
/// report, the others' rows are those of a clean run, and the run ends with exit 70.
final class ContractViolationDriverTests: XCTestCase {
    private func run(_ workload: PromisingWorkload) throws -> (document: RunDocument, failure: BenchFailure?) {
        let folder = NSTemporaryDirectory() + "patternbench-contract-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let common = try CommonOptions.parse(["--output", folder, "--quiet", "--jobs", "2"])
        var failure: BenchFailure?
        do {
            try WorkloadDriver.run(PromisingWorkload.self, common: common) { (_: WorkloadEnvironment<ThreeVariants>) in workload }
        } catch let f as BenchFailure { failure = f }
        let document = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: "\(folder)/promising.json")))
        return (document, failure)
    }

    func testABrokenContractFailsItsItemOnly() throws {
        let clean = try run(PromisingWorkload(breaking: nil))
        let broken = try run(PromisingWorkload(breaking: 1))

        let failure = try XCTUnwrap(broken.failure)
        XCTAssertEqual(failure.exitCode, 70)
        let reason = "broke the test contract: every item keeps its word; first at its word at 1 ms"
        XCTAssertTrue(failure.message.hasSuffix("item 1: \(reason)"), failure.message)
        XCTAssertEqual(
            broken.document.metadata.parameters["failed_items"],
            .array([.object(["item": .string("item 1"), "reason": .string(reason)])])
        )
        XCTAssertEqual(broken.document.notes.first, "FAILED: item 1: \(reason)")
        XCTAssertFalse(broken.document.complete)
        XCTAssertFalse(broken.document.records.contains { $0.variant == "v1" }, "the failed item has no rows")
        XCTAssertFalse(broken.document.summaries.contains { $0.variant == "v1" }, "nor a summary")
        // The run's identity (its id) differs between the runs; everything else is the same.
        func rows(_ d: RunDocument) -> [ResultRecord] {
            d.records.map {
                var r = $0
                r.runID = ""
                return r
            }
        }
        XCTAssertEqual(rows(broken.document), rows(clean.document).filter { $0.variant != "v1" }, "the others' rows are a clean run's")
        // Control: the same workload with no broken item passes, every item ranked.
        XCTAssertNil(clean.failure)
        XCTAssertTrue(clean.document.complete)
        XCTAssertEqual(Set(clean.document.records.map(\.variant)), ["v0", "v1", "v2"])
        XCTAssertNil(clean.document.metadata.parameters["failed_items"])
    }

    /// A check keeps the first violation only, and one that holds records nothing.
    func testACheckKeepsTheFirstViolation() {
        var check = ContractCheck()
        check.require(true, keepsItsWord, at: "never built")
        XCTAssertFalse(check.isBroken)
        check.require(false, keepsItsWord, at: "first")
        check.require(false, keepsItsWord, at: "second")
        XCTAssertEqual(check.first, keepsItsWord.violated(at: "first"))
        XCTAssertThrowsError(try check.verify())
    }
}
