import Foundation
import Measurement
import Records

extension CacheWorkload {
    /// What the report keeps of a run while its items stream past: a live item's records (its
    /// tables) and the first sim item whose lru hits differ from the stack-distance reference —
    /// nothing else of a sim item, whose tables come from the run's summaries. Keeping each item
    /// (even without its per-read latencies, which alone grew the peak by about 30 MB a seed) still
    /// grew the run's peak with `--seeds`.
    public struct Kept: Sendable {
        public var liveRecords: [ResultRecord] = []
        public var referenceMismatch: String?
    }

    public var emptyAggregate: Kept { Kept() }

    public func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        switch r.sample {
        case .sim(let s):
            // The independent reference must agree exactly with lru.
            guard r.item.variant.checkedByStackDistance, let reference = s.referenceHits, reference != s.hits else { return }
            kept.referenceMismatch = "lru hits \(s.hits) differ from the stack-distance reference \(reference) on \(label(r.item))"
        default:
            kept.liveRecords += records(of: [r])
        }
    }

    public func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        var notes: [String] = []
        if configuration.mode == .live {
            if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
            if live?.jemalloc == nil {
                notes.append("allocator system: allocs_per_op and bytes_per_entry not measured (use --allocator jemalloc)")
            }
            notes.append(
                "timings on a shared, noisy host; \(ProcessInfo.processInfo.activeProcessorCount) cores, up to \(items.map(\.threads).max() ?? 1) threads"
            )
            return WorkloadReport(table: CacheRanking.liveTable(records: kept.liveRecords), notes: notes)
        }
        let failure = kept.referenceMismatch.map { BenchFailure.runtime($0) }
        var table = CacheRanking.simTable(summaries: summaries, scenarios: scenarios)
        let names = Set(variants.map(\.name))
        if names.contains(CacheVariant.s3fifo.name), names.contains(CacheVariant.lru.name) {
            let h = CacheRanking.headToHead(
                summaries: summaries.filter { $0.mode == "sim" },
                ours: CacheVariant.s3fifo.name,
                reference: CacheVariant.lru.name
            )
            table +=
                "\ns3-fifo vs lru on hit ratio at equal capacity and context: \(h.wins) better, \(h.ties) equal, \(h.losses.count) worse"
            if !h.losses.isEmpty { table += "\n  worse: " + h.losses.joined(separator: "; ") }
            table += "\n"
        }
        if userTrace != nil, seeds.count > 1 {
            notes.append("a replayed trace is the same for every seed: repetitions differ only for random")
        }
        return WorkloadReport(table: table, notes: notes, failure: failure)
    }
}
