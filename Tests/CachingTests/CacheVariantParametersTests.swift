import Measurement
import XCTest

@testable import Caching

/// A cache design whose behaviour hangs on a setting its factory captures: how many keys a get
/// may promote before the cache stops reordering (any value will do: only the setting matters).
private final class CappedPromotionCache<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    let promotionCap: Int
    private var entries: [Key: Value] = [:]

    init(capacity: Int, promotionCap: Int) {
        self.capacity = capacity
        self.promotionCap = promotionCap
    }

    var count: Int { entries.count }
    func get(_ key: Key) -> Value? { entries[key] }
    func set(_ key: Key, _ value: Value) { if entries.count < capacity { entries[key] = value } }
    func clear() { entries.removeAll() }
}

/// "Same parameters" compares what a variant's factory actually builds, setting by setting, and
/// names only variants of the run.
final class CacheVariantParametersTests: XCTestCase {
    private func variant(_ name: String, cap: Int) -> CacheVariant {
        CacheVariant(
            name: name,
            origin: .user,
            summary: "promotion capped at \(cap)",
            sim: { c, _ in CappedPromotionCache(capacity: c, promotionCap: cap) },
            live: { c, _ in CappedPromotionCache(capacity: c, promotionCap: cap) }
        )
    }

    func testACapturedSettingTellsTwoVariantsOfOneTypeApart() throws {
        var registry = VariantRegistry<CacheVariant>(builtIn: [])
        try registry.register(variant("capped-4", cap: 4))
        try registry.register(variant("capped-8", cap: 8))
        try registry.register(variant("capped-4-again", cap: 4))
        let four = try XCTUnwrap(registry.named("capped-4")), eight = try XCTUnwrap(registry.named("capped-8"))
        let again = try XCTUnwrap(registry.named("capped-4-again"))
        XCTAssertTrue(four.parameters.contains(VariantParameter("promotionCap", "4")), "\(four.parameters)")
        // One type, another captured setting: not the same thing (a type-name comparison said it was).
        XCTAssertNotEqual(registry.twin(of: eight)?.name, "capped-4")
        XCTAssertNil(registry.twin(of: eight))
        // The control: the same setting under a second name is the same thing.
        XCTAssertEqual(registry.twin(of: again)?.name, "capped-4")

        // Notes name only variants that ran: the twin must have run too.
        XCTAssertEqual(registry.twinNotes(running: [again, eight]), [])
        let notes = registry.twinNotes(running: [four, eight, again])
        XCTAssertEqual(notes.count, 2, "\(notes)")
        XCTAssertTrue(notes.allSatisfy { !$0.contains("capped-8") }, "\(notes)")
    }

    /// No built-in cache is another's twin, and a description is the same every time it is made
    /// (an object's address would make every instance unique).
    func testBuiltInDescriptionsAreStableAndDistinct() {
        let registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        for v in CacheVariant.builtIn {
            XCTAssertEqual(v.parameters, v.parameters, v.name)
            XCTAssertNil(registry.twin(of: v), v.name)
        }
    }
}
