import Records
import Timelines

extension TimelineRecord {
    /// Gives each record the factors of the results rows it belongs to: those of `groups` (one
    /// item's observations) with the same scenario, variant, mode, seed and repetition; a record
    /// no group matches (a harness track) gets the factors the item's groups share, if they agree.
    public static func stampFactors(_ records: inout [TimelineRecord], from groups: [LabelledObservations]) {
        struct Key: Hashable {
            var scenario, variant, mode: String
            var seed: UInt64
            var repetition: Int
        }
        var byKey: [Key: [String: String]] = [:]
        for g in groups {
            byKey[Key(scenario: g.scenario, variant: g.variant, mode: g.mode, seed: g.seed, repetition: g.repetition)] = g.factors
        }
        let distinct = Set(groups.map(\.factors))
        let shared = distinct.count == 1 ? distinct.first! : [:]
        for i in records.indices {
            let r = records[i]
            records[i].factors =
                byKey[Key(scenario: r.scenario, variant: r.variant, mode: r.mode, seed: r.seed, repetition: r.repetition)] ?? shared
        }
    }
}
