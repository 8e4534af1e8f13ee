import Foundation
import Records
import Testing

/// bench-invalidation's live mode: three real processes per item on a real SQLite database.
///
/// Swift Testing, not XCTest (`swift test` within 180 s): the run is mostly its items'
/// live seconds, waited out side by side with the other waiting tests (on a thread of its own,
/// `onThread`). A failed expectation fails `swift test` as an XCTest failure does.
@Suite struct BenchInvalidationLiveTests {
    /// Live mode: three real processes per item on a real SQLite database; live numbers beside the
    /// simulation's in the JSON's comparisons; the database really is in WAL mode.
    @Test func liveModeRunsRealProcessesAndComparesWithSim() async throws {
        let dir = try ExecutableRunner.temporaryDirectory("invalidation-live")
        defer { try? FileManager.default.removeItem(at: dir) }
        let keep = dir.appendingPathComponent("live")
        let out = dir.appendingPathComponent("out")
        let r = try await onThread {
            try ExecutableRunner.run(
                "bench-invalidation",
                [
                    "--quiet", "--output", out.path, "--mode", "live", "--duration", "1", "--debounce-s", "0.2", "--variant",
                    "signal,no-invalidation", "--live-dir", keep.path,
                ]
            )
        }
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("invalidation.json")))
        #expect(Set(doc.records.map(\.mode)) == ["sim", "live"])
        let comparisons = doc.comparisons
        #expect(comparisons.contains { $0.variant == "signal" && $0.metric == "missed_invalidations" && $0.live == 0 })
        #expect(comparisons.contains { $0.variant == "no-invalidation" && $0.metric == "stale_reads" && $0.live > 0 })
        let foreign = doc.records.filter { $0.mode == "live" && $0.metric == "foreign_commits" }
        #expect(foreign.allSatisfy { $0.value > 0 }, "\(foreign)")
        // Each item's folder: the database (WAL), the FIFOs, one log and result per child.
        let items = try FileManager.default.contentsOfDirectory(atPath: keep.path)
        #expect(items.count == 2)
        for item in items {
            let files = try FileManager.default.contentsOfDirectory(atPath: keep.appendingPathComponent(item).path)
            #expect(files.contains("main.result.json") && files.contains("share.result.json"), "\(files)")
            let header = try Data(contentsOf: keep.appendingPathComponent(item).appendingPathComponent("db.sqlite")).prefix(20)
            #expect(header[18] == 2, "file format write version 2 = WAL")  // sqlite file header byte 18
        }
    }
}
