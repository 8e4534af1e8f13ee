import Caching
import Differential
import Foundation
import Measurement
import TestSupport
import Throttling
import XCTest

/// The engine's own rules: the comparison and its tolerance, shrinking, determinism, the
/// report's round trip through `--replay-case`, and the one-line refusals.
final class EngineTests: XCTestCase {
    func testToleranceIsHonouredAndAnythingBeyondItIsCaught() {
        let a = [ObservedEvent(atNs: 100, kind: "publish", detail: "rows=1")]
        let late = [ObservedEvent(atNs: 150, kind: "publish", detail: "rows=1")]
        XCTAssertNil(LogDifference.first(a, late, toleranceNs: 50))
        XCTAssertEqual(LogDifference.first(a, late, toleranceNs: 49)?.atNs, 100)
        // Same time, other detail; and a log that ends early.
        XCTAssertNotNil(LogDifference.first(a, [ObservedEvent(atNs: 100, kind: "publish", detail: "rows=2")], toleranceNs: 1_000))
        let d = LogDifference.first(a, [], toleranceNs: 0)
        XCTAssertEqual(d?.index, 0)
        XCTAssertNil(d?.b)
    }

    func testARunIsTheSameForItsSeedAndDiffersForAnother() {
        let engine = DifferentialEngine<CacheCase>(
            a: VariantRegistry(builtIn: CacheVariant.builtIn).named("lru")!,
            b: VariantRegistry(builtIn: CacheVariant.builtIn).named("fifo")!
        )
        let one = engine.run(cases: 200, seed: 7)
        let again = engine.run(cases: 200, seed: 7)
        XCTAssertEqual(one.diverged, again.diverged)
        XCTAssertEqual(one.minimal?.input, again.minimal?.input)
        XCTAssertEqual(one.minimal?.firstDifference, again.minimal?.firstDifference)
        XCTAssertNotEqual(
            DifferentialEngine<CacheCase>.generate(index: 0, seed: 7).input,
            DifferentialEngine<CacheCase>.generate(index: 0, seed: 8).input
        )
    }

    func testShrinkingKeepsOnlyChangesThatStillDiverge() {
        let engine = DifferentialEngine<ThrottleCase>(a: .builtIn("immediate"), b: .builtIn("fixed-rate"))
        let outcome = engine.run(cases: 5, seed: 3)
        let m = try! XCTUnwrap(outcome.minimal)
        XCTAssertLessThanOrEqual(m.size, m.originalSize)
        XCTAssertNotNil(engine.difference(m.input))
        // Minimal: no candidate of the shrunk case diverges any more.
        XCTAssertTrue(m.input.shrinkCandidates.allSatisfy { engine.difference($0) == nil })
    }

    func request(_ variants: [String]?, cases: Int = 50, replay: String? = nil, output: String) -> DifferentialRequest {
        DifferentialRequest(variants: variants, cases: cases, seed: 1, toleranceNs: 0, replay: replay, output: output)
    }

    func testTheReportReplaysUntilTheVariantsAgree() throws {
        let folder = try temporaryFolder("differential")
        let registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        XCTAssertEqual(
            try DifferentialCommand.run(CacheCase.self, registry: registry, request: request(["lru", "fifo"], cases: 300, output: folder)),
            1
        )
        let path = folder + "/differential.json"
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        XCTAssertEqual(json["cases"] as? Int, 300)
        let minimal = try XCTUnwrap(json["minimal"] as? [String: Any])
        XCTAssertNotNil(minimal["size"] as? Int)
        XCTAssertNotNil((minimal["first_difference"] as? [String: Any])?["at_ns"])
        let replay = request(nil, replay: path, output: folder)
        XCTAssertEqual(try DifferentialCommand.run(CacheCase.self, registry: registry, request: replay), 1)
        // The same case with two agreeing variants: it no longer diverges.
        var same = replay
        same.variants = ["lru", "lru"]
        XCTAssertEqual(try DifferentialCommand.run(CacheCase.self, registry: registry, request: same), 0)
    }

    func testBadRequestsAreOneLineUsageFailures() throws {
        let folder = try temporaryFolder("differential")
        let registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        func refusal(_ r: DifferentialRequest) -> BenchFailure? {
            do {
                _ = try DifferentialCommand.run(CacheCase.self, registry: registry, request: r)
                return nil
            } catch { return error as? BenchFailure }
        }
        for bad in [
            request(["lru"], output: folder), request(["lru", "fifo", "random"], output: folder), request(["lru", "nope"], output: folder),
            request(["lru", "fifo"], cases: 0, output: folder), request(nil, replay: folder + "/missing.json", output: folder),
        ] {
            let failure = refusal(bad)
            XCTAssertEqual(failure?.exitCode, 64, "\(bad)")
            XCTAssertFalse(failure?.message.contains("\n") ?? true)
        }
        // A damaged file, and one written for another workload.
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: folder + "/damaged.json"))
        XCTAssertEqual(refusal(request(nil, replay: folder + "/damaged.json", output: folder))?.exitCode, 64)
        let other = try temporaryFolder("differential-throttle")
        _ = try DifferentialCommand.run(
            ThrottleCase.self,
            registry: .throttlers,
            request: request(["immediate", "fixed-rate"], cases: 2, output: other)
        )
        let foreign = refusal(request(nil, replay: other + "/differential.json", output: folder))
        XCTAssertEqual(foreign?.exitCode, 64)
        XCTAssertTrue(foreign?.message.contains("throttle") ?? false, foreign?.message ?? "")
    }
}
