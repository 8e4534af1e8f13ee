import Measurement
import XCTest

@testable import FanOut

/// The workload's matrix and its refusals.
final class FanOutWorkloadTests: XCTestCase {
    func testDefaultMatrixAndLiveOverheadRows() throws {
        let sim = try FanOutWorkload(configuration: FanOutConfiguration())
        XCTAssertEqual(sim.items.count, 4 * 5 * FanOutVariant.builtIn.count)
        XCTAssertTrue(sim.items.allSatisfy { sim.timing($0) == .virtual && !sim.runsInChildProcess($0) })
        var live = FanOutConfiguration()
        live.mode = .live
        let l = try FanOutWorkload(
            configuration: live,
            environment: WorkloadEnvironment(selection: MatrixSelection(scenarios: ["child-overhead"], quick: true))
        )
        XCTAssertEqual(l.items.map(\.variant.name), ["dispatch-group-child", "task-group-child"])
        XCTAssertEqual(l.variantOrigins["task-group-child"], .reference)
        XCTAssertTrue(l.items.allSatisfy { l.timing($0) == .real && l.runsInChildProcess($0) })
    }

    /// A hedged synchronous-operations shape runs in virtual time, and is refused live (no live form).
    func testHedgedOperationsHaveNoLiveForm() throws {
        var registry = VariantRegistry<FanOutVariant>()
        try registry.registerHedgedUserShape("hedged-ops", join: .blockingOperations)
        XCTAssertNoThrow(try FanOutWorkload(configuration: FanOutConfiguration(), environment: WorkloadEnvironment(registry: registry)))
        var live = FanOutConfiguration()
        live.mode = .live
        XCTAssertThrowsError(try FanOutWorkload(configuration: live, environment: WorkloadEnvironment(registry: registry))) { error in
            XCTAssertTrue((error as? BenchFailure)?.message.contains("hedged synchronous operations have no live form") == true, "\(error)")
        }
    }
}
