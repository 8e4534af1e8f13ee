import Measurement
import Records
import XCTest

@testable import BenchCommandLine

/// A workload of two items that measure nothing.
private protocol TwoItemWorkload: ItemKeepingWorkload where Item == Int, Sample == Int {}

extension TwoItemWorkload {
    static var catalogue: WorkloadCatalogue { WorkloadCatalogue(sections: []) }
    var factorNames: [String] { [] }
    var items: [Int] { [0, 1] }
    var parameters: [String: JSONValue] { [:] }
    func label(_ item: Int) -> String { "item \(item)" }
    func run(_ item: Int) throws -> Int { item }
    func observations(for item: Int, sample: Int) -> [LabelledObservations] { [] }
    func report(_ results: [FinishedItem<Int, Int>], complete: Bool) throws -> WorkloadReport { WorkloadReport(table: "") }
}

/// Every item would run in a child process.
private struct AlwaysIsolating: TwoItemWorkload, IsolatingWorkload {
    static let name = "always-isolating"
    func runsInChildProcess(_ item: Int) -> Bool { true }
}

/// Not declared isolating.
private struct NeverIsolating: TwoItemWorkload {
    static let name = "never-isolating"
}

/// Whether the driver isolates a workload's items is asked of the workload's type, so a caller that
/// knows it only as some `Workload` isolates the same items as one that names the type.
final class WorkloadIsolationTests: XCTestCase {
    private func isolation<W: Workload>(_: W.Type) -> WorkloadDriver.Isolation<W>? {
        WorkloadDriver.Isolation<W>.of(timeout: 1)
    }

    func testAnIsolatingWorkloadIsIsolatedThroughAGenericCaller() throws {
        let isolation = try XCTUnwrap(isolation(AlwaysIsolating.self))
        XCTAssertTrue(isolation.isolates(AlwaysIsolating(), 0))
    }

    /// Control: a workload that is not an `IsolatingWorkload` gets no isolation.
    func testAPlainWorkloadIsNotIsolated() {
        XCTAssertNil(isolation(NeverIsolating.self))
    }
}
