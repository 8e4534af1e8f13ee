import Simulation
import Timelines

/// Codable so that an item run in a child process can hand its result back; the re-warm time
/// travels as whole nanoseconds, so the decoded result is the one measured, bit for bit.
extension CacheSimResult: Codable {
    private enum CodingKeys: String, CodingKey {
        case reads, hits, clears, capacity, missStormReads, rewarmNanoseconds, unrecovered, latencies, referenceHits, trace
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        reads = try c.decode(Int.self, forKey: .reads)
        hits = try c.decode(Int.self, forKey: .hits)
        clears = try c.decode(Int.self, forKey: .clears)
        capacity = try c.decode(Int.self, forKey: .capacity)
        missStormReads = try c.decode(Int.self, forKey: .missStormReads)
        rewarm = SimDuration(nanoseconds: try c.decode(Int64.self, forKey: .rewarmNanoseconds))
        unrecovered = try c.decode(Int.self, forKey: .unrecovered)
        latencies = try c.decode([Int64].self, forKey: .latencies)
        referenceHits = try c.decodeIfPresent(Int.self, forKey: .referenceHits)
        trace = try c.decodeIfPresent([TraceEvent].self, forKey: .trace) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(reads, forKey: .reads)
        try c.encode(hits, forKey: .hits)
        try c.encode(clears, forKey: .clears)
        try c.encode(capacity, forKey: .capacity)
        try c.encode(missStormReads, forKey: .missStormReads)
        try c.encode(rewarm.nanoseconds, forKey: .rewarmNanoseconds)
        try c.encode(unrecovered, forKey: .unrecovered)
        try c.encode(latencies, forKey: .latencies)
        try c.encodeIfPresent(referenceHits, forKey: .referenceHits)
        if !trace.isEmpty { try c.encode(trace, forKey: .trace) }
    }
}
