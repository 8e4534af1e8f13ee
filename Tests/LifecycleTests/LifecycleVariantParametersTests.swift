import Measurement
import XCTest

@testable import Lifecycle

/// `--list --verbose` shows every field of a lifecycle declaration, and a user's policy equal to a
/// built-in one is pointed out.
final class LifecycleVariantParametersTests: XCTestCase {
    func testEveryFieldIsListedAndACopyOfABuiltInIsPointedOut() throws {
        var registry = VariantRegistry(builtIn: LifecycleVariant.builtIn)
        let signal = try XCTUnwrap(registry.named("signal"))
        let names = signal.parameters.map(\.name)
        for field in ["persistence", "durability", "backgroundSave", "savesAtWillTerminate", "refresh", "crashLoopThreshold"] {
            XCTAssertTrue(names.contains(field), "\(field) missing from \(names)")
        }
        try registry.register(LifecycleVariant(name: "copy", origin: .user, summary: "Signal's, renamed", policy: signal.policy))
        var changed = signal.policy
        changed.savesOnlyWhenDirty.toggle()
        try registry.register(LifecycleVariant(name: "changed", origin: .user, summary: "one field differs", policy: changed))
        let entries = Dictionary(uniqueKeysWithValues: registry.catalogueEntries.map { ($0.name, $0.summary) })
        XCTAssertTrue(entries["copy"]?.hasSuffix("(same parameters as 'signal')") == true, entries["copy"] ?? "")
        XCTAssertFalse(entries["changed"]?.contains("same parameters") == true, "the control: one field differs")
    }
}
