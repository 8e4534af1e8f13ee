import Foundation
import Measurement

extension CacheWorkload {
    /// Keeps each finished item for the report, a sim item without its per-read latencies (its
    /// reported percentiles kept instead): the report reads only observations, hits and the
    /// reference, and the latencies grew the run's peak by about 30 MB a seed (1.5 GB at
    /// `--seeds 50`).
    public func aggregate(_ aggregate: inout [FinishedItem<Item, Sample>], _ finished: FinishedItem<Item, Sample>) {
        var kept = finished
        if case .sim(let result) = finished.sample { kept.sample = .sim(result.withoutLatencies()) }
        aggregate.append(kept)
    }

    public func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        let records = records(of: results)
        var notes: [String] = []
        var failure: BenchFailure?
        if configuration.mode == .live {
            if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
            if live?.jemalloc == nil {
                notes.append("allocator system: allocs_per_op and bytes_per_entry not measured (use --allocator jemalloc)")
            }
            notes.append(
                "timings on a shared, noisy host; \(ProcessInfo.processInfo.activeProcessorCount) cores, up to \(items.map(\.threads).max() ?? 1) threads"
            )
            return WorkloadReport(table: CacheRanking.liveTable(records: records), notes: notes)
        }
        // The independent reference must agree exactly with lru.
        for r in results where r.item.variant.checkedByStackDistance {
            guard case .sim(let s) = r.sample, let reference = s.referenceHits else { continue }
            if reference != s.hits {
                failure = BenchFailure.runtime(
                    "lru hits \(s.hits) differ from the stack-distance reference \(reference) on \(label(r.item))"
                )
            }
        }
        var table = CacheRanking.simTable(records: records, scenarios: scenarios)
        let names = Set(variants.map(\.name))
        if names.contains(CacheVariant.s3fifo.name), names.contains(CacheVariant.lru.name) {
            let h = CacheRanking.headToHead(
                records: records.filter { $0.mode == "sim" },
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
