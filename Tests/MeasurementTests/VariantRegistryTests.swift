import Measurement
import XCTest

final class VariantRegistryTests: XCTestCase {
    struct V: NamedVariant {
        var info: VariantInfo
        init(_ name: String, _ origin: VariantOrigin = .user, isDefault: Bool = true) {
            info = VariantInfo(name: name, origin: origin, summary: "s", isDefault: isDefault)
        }
    }

    func testDuplicateReservedAndMalformedNamesAreRefusedWithOneLine() {
        var r = VariantRegistry<V>(builtIn: [V("lru", .platform)])
        for bad in ["lru", "all", "harness", "-", "", "Upper", "has space", "9starts-with-digit", "a,b", String(repeating: "x", count: 49)]
        {
            XCTAssertThrowsError(try r.register(V(bad)), bad) { error in
                let failure = error as? BenchFailure
                XCTAssertEqual(failure?.exitCode, 64, bad)
                XCTAssertEqual(failure?.message.contains("\n"), false, bad)
            }
        }
        XCTAssertNoThrow(try r.register(V("clock-cache")))
        XCTAssertEqual(r.variants.map(\.info.name), ["lru", "clock-cache"])
    }

    func testResolveRunsTheDefaultsOrWhatWasAskedAndLabelsOrigins() throws {
        var r = VariantRegistry<V>(builtIn: [V("a", .signal), V("b", .ours, isDefault: false)])
        try r.register(V("mine"))
        XCTAssertEqual(try r.resolve([]).map(\.info.name), ["a", "mine"])
        XCTAssertEqual(try r.resolve(["b", "a"]).map(\.info.name), ["b", "a"])
        XCTAssertThrowsError(try r.resolve(["zzz"])) { error in
            XCTAssertTrue((error as? BenchFailure)?.message.contains("known: a, b, mine") == true, "\(error)")
        }
        XCTAssertEqual(r.origins, ["a": .signal, "b": .ours, "mine": .user])
        XCTAssertTrue(r.catalogueEntries.contains { $0.name == "mine" && $0.summary.hasPrefix("[user]") })
    }
}
