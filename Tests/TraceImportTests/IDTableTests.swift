import XCTest

@testable import TraceImport

/// The reader's table of values by id behaves as a dictionary would: every id defined is found
/// (across the table's growth), a later definition replaces an earlier one, and an id never
/// defined is not found.
final class IDTableTests: XCTestCase {
    final class Box {
        let n: Int
        init(_ n: Int) { self.n = n }
    }

    func testBehavesAsADictionary() {
        var table = IDTable<Box>()
        var reference: [Int: Int] = [:]
        var state: UInt64 = 42  // a fixed LCG: the same ids on every run
        // Sequential ids, as an exporter writes them, then scattered ones and redefinitions.
        for id in 1...5_000 {
            table[id] = Box(id)
            reference[id] = id
        }
        for k in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let id = Int(state >> 24)
            table[id] = Box(k)
            reference[id] = k
        }
        for id in stride(from: 2, through: 5_000, by: 7) {
            table[id] = Box(-id)
            reference[id] = -id
        }
        XCTAssertEqual(table.count, reference.count)
        for (id, n) in reference { XCTAssertEqual(table[id]?.n, n, "id \(id)") }
        var missing = 0
        for id in 5_001...20_000 where reference[id] == nil {
            XCTAssertNil(table[id], "id \(id) was never defined")
            missing += 1
        }
        XCTAssertGreaterThan(missing, 14_000)
    }
}
