import Measurement
import XCTest

@testable import FanOut

/// `--list` shows a shape's parameters and points out a user's shape that the suite already has.
final class FanOutVariantParametersTests: XCTestCase {
    func testAUserShapeIdenticalToABuiltInIsPointedOutAndADifferentOneIsNot() throws {
        var registry = VariantRegistry(builtIn: FanOutVariant.builtIn)
        let hedged = try XCTUnwrap(registry.named("hedged"))
        try registry.register(FanOutVariant(name: "my-first-shape", origin: .user, summary: "mine", shape: hedged.shape))
        try registry.registerHedgedUserShape("hedged-notify", join: .callback)
        let entries = Dictionary(uniqueKeysWithValues: registry.catalogueEntries.map { ($0.name, $0) })
        XCTAssertTrue(try XCTUnwrap(entries["my-first-shape"]).summary.hasSuffix("(same parameters as 'hedged')"))
        XCTAssertEqual(registry.twin(of: try XCTUnwrap(registry.named("my-first-shape")))?.name, "hedged")
        // The control: a shape the suite does not have is not called a duplicate.
        XCTAssertFalse(try XCTUnwrap(entries["hedged-notify"]).summary.contains("same parameters"))
        XCTAssertNil(registry.twin(of: try XCTUnwrap(registry.named("hedged-notify"))))
        XCTAssertEqual(
            try XCTUnwrap(entries["hedged"]).details,
            ["issue = concurrent", "join = suspend", "onFailure = cancelOnFirst", "hedged = true", "live primitive = task-group"]
        )
        // No two of the suite's own shapes are the same strategy.
        for v in FanOutVariant.builtIn { XCTAssertNil(VariantRegistry(builtIn: FanOutVariant.builtIn).twin(of: v), v.name) }
    }
}
