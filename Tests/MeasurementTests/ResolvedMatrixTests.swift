import Measurement
import XCTest

/// The shared resolution step every `MatrixWorkload` builds its matrix with.
final class ResolvedMatrixTests: XCTestCase {
    struct V: NamedVariant {
        var info: VariantInfo
        init(_ name: String, isDefault: Bool = true) { info = VariantInfo(name: name, origin: .ours, summary: "s", isDefault: isDefault) }
    }

    struct S: NamedScenario {
        var name: String
        init(_ name: String) { self.name = name }
    }

    let registry = VariantRegistry<V>(builtIn: [V("a"), V("b"), V("off", isDefault: false)])
    let catalogue = [S("x"), S("y"), S("z")]

    func environment(_ selection: MatrixSelection) -> WorkloadEnvironment<V> {
        WorkloadEnvironment(selection: selection, registry: registry)
    }

    func testDefaultsAreTheCatalogueTheDefaultVariantsAndTheWorkloadsSeedCount() throws {
        let m = try ResolvedMatrix<S, V, MatrixCell<S, V>>(environment(MatrixSelection(firstSeed: 7)), scenarios: catalogue, seeds: 2)
        XCTAssertEqual(m.scenarios.map(\.name), ["x", "y", "z"])
        XCTAssertEqual(m.variants.map(\.info.name), ["a", "b"])
        XCTAssertEqual(m.seeds, [7, 8])
        XCTAssertTrue(m.items.isEmpty, "items are the workload's to make")
        // A plain matrix: scenario-major, then seed, then variant, as MatrixSelection.cells orders them.
        let cells = m.withCells().items.map { "\($0.scenarioName) \($0.seed) \($0.variantName) \($0.repetition)" }
        XCTAssertEqual(cells.count, 3 * 2 * 2)
        XCTAssertEqual(Array(cells.prefix(5)), ["x 7 a 0", "x 7 b 0", "x 8 a 1", "x 8 b 1", "y 7 a 0"])
    }

    func testWhatWasAskedForInItsOrderAndAWorkloadsOwnDefault() throws {
        let asked = environment(MatrixSelection(scenarios: ["z", "x"], variants: ["off"], seedCount: 1))
        let m = try ResolvedMatrix<S, V, MatrixCell<S, V>>(asked, scenarios: catalogue, seeds: 5)
        XCTAssertEqual(m.scenarios.map(\.name), ["z", "x"])
        XCTAssertEqual(m.variants.map(\.info.name), ["off"])
        XCTAssertEqual(m.seeds, [1])
        // `requested` replaces the selection's names (a workload's live default, say).
        let own = try ResolvedMatrix<S, V, MatrixCell<S, V>>(
            environment(MatrixSelection(quick: true)),
            scenarios: catalogue,
            requested: ["y"],
            seeds: 5
        )
        XCTAssertEqual(own.scenarios.map(\.name), ["y"])
        XCTAssertEqual(own.seeds, [1], "--quick runs one seed")
    }

    func testUnknownNamesAreOneLineUsageErrorsVariantsFirst() {
        func failure(_ selection: MatrixSelection) -> BenchFailure? {
            do {
                _ = try ResolvedMatrix<S, V, MatrixCell<S, V>>(environment(selection), scenarios: catalogue, seeds: 1)
                return nil
            } catch { return error }
        }
        let scenario = failure(MatrixSelection(scenarios: ["nope"]))
        XCTAssertEqual(scenario?.exitCode, 64)
        XCTAssertEqual(scenario?.message, "unknown --scenario 'nope'; known: x, y, z")
        let both = failure(MatrixSelection(scenarios: ["nope"], variants: ["zzz"]))
        XCTAssertEqual(both?.exitCode, 64)
        XCTAssertTrue(
            both?.message.contains("zzz") == true,
            "--variant is resolved first, as every workload did: \(String(describing: both))"
        )
        XCTAssertNil(failure(MatrixSelection(scenarios: ["y"], variants: ["b"])), "the control: known names resolve")
    }
}
