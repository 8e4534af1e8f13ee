/// `Statistics.summarize` for records that stream past once: the same rows, bit for bit, in
/// memory that does not grow with the number of records.
///
/// A median needs every value of its group, so the values go to a spool file as they arrive
/// (12 bytes each); memory holds one entry per group. `summaries()` reads the spool back in as
/// many passes as it takes to hold at most `budget` values at once, each group's values in
/// arrival order, and hands them to the same `Statistics` functions `summarize` uses (a mean's
/// sum depends on the order of its terms).
package struct SummaryAccumulator {
    struct Key: Hashable {
        var scenario, variant, mode, metric: String
        var factors: [String: String]
    }

    private var order: [(key: Key, unit: String, count: Int)] = []
    private var index: [Key: UInt32] = [:]
    private let spool: SpoolFile
    /// The most values held in memory at once while summarising.
    package let budget: Int
    /// The most values `summaries()` held at once (for tests of the bound).
    package private(set) var peakHeldValues = 0
    /// Values added so far.
    package private(set) var valueCount = 0

    package init(spoolIn folder: String, name: String, budget: Int = 1 << 20) throws(AtomicFile.WriteError) {
        spool = try SpoolFile.anonymous(in: folder, name: name)
        self.budget = max(1, budget)
    }

    package mutating func add(_ r: ResultRecord) throws(AtomicFile.WriteError) {
        let key = Key(scenario: r.scenario, variant: r.variant, mode: r.mode, metric: r.metric, factors: r.factors)
        let group: UInt32
        if let known = index[key] {
            group = known
        } else {
            group = UInt32(order.count)
            index[key] = group
            order.append((key, r.unit, 0))
        }
        order[Int(group)].count += 1
        valueCount += 1
        try spool.append(value: group)
        try spool.append(value: r.value.bitPattern)
    }

    /// One row per group, in first-seen order, equal to `Statistics.summarize` of the same records.
    package mutating func summaries() throws -> [SummaryRow] {
        var rows: [SummaryRow] = []
        rows.reserveCapacity(order.count)
        var first = 0
        while first < order.count {
            // The next pass: consecutive groups whose values fit the budget (at least one group).
            var last = first
            var held = order[first].count
            while last + 1 < order.count, held + order[last + 1].count <= budget {
                last += 1
                held += order[last].count
            }
            peakHeldValues = max(peakHeldValues, held)
            var values: [[Double]] = order[first...last].map { g in
                var v: [Double] = []
                v.reserveCapacity(g.count)
                return v
            }
            try readValues { group, value in
                if group >= first, group <= last { values[group - first].append(value) }
            }
            for (offset, v) in values.enumerated() {
                let g = order[first + offset]
                rows.append(
                    SummaryRow(
                        scenario: g.key.scenario,
                        variant: g.key.variant,
                        mode: g.key.mode,
                        factors: g.key.factors,
                        metric: g.key.metric,
                        unit: g.unit,
                        count: v.count,
                        median: Statistics.median(v)!,
                        min: v.min()!,
                        max: v.max()!,
                        mean: Statistics.mean(v)!
                    )
                )
            }
            first = last + 1
        }
        return rows
    }

    /// Every spooled (group, value) pair, in arrival order.
    private func readValues(_ body: (Int, Double) -> Void) throws {
        let width = MemoryLayout<UInt32>.size + MemoryLayout<UInt64>.size
        var carry: [UInt8] = []
        func consume(_ raw: UnsafeRawBufferPointer) {
            var offset = 0
            while offset + width <= raw.count {
                let group = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let bits = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt64.self)
                body(Int(group), Double(bitPattern: bits))
                offset += width
            }
            carry = Array(raw[offset...])
        }
        try spool.forEachChunk { chunk in
            if carry.isEmpty {
                consume(chunk)
            } else {
                (carry + Array(chunk)).withUnsafeBytes { consume($0) }
            }
        }
    }
}
