import Simulation

/// Everything that will happen in one run, drawn up front from the seed: who writes which rows
/// when, which rows the main app and the share extension read when, and when the main app is
/// activated. The simulation steps through it in virtual time; live mode hands the same plan to
/// real processes, so live and simulated runs differ only in what real time does to them.
public struct InvalidationPlan: Sendable, Codable, Equatable {
    public struct Write: Sendable, Codable, Equatable {
        public var timeNs: Int64
        public var role: ProcessRole
        public var keys: [Int]
    }

    public struct Read: Sendable, Codable, Equatable {
        public var timeNs: Int64
        public var key: Int
    }

    public struct Activation: Sendable, Codable, Equatable {
        public var timeNs: Int64
        public var active: Bool
    }

    public var durationNs: Int64
    public var keys: Int
    public var mainCacheCapacity: Int
    public var shareCacheCapacity: Int
    public var writes: [Write]
    public var mainReads: [Read]
    public var shareReads: [Read]
    /// A share session starts a fresh extension process with an empty cache.
    public var shareSessionStarts: [Int64]
    public var activations: [Activation]

    /// A hand-written plan (tests replay documented timelines with it).
    init(
        durationNs: Int64,
        keys: Int,
        mainCacheCapacity: Int = 64,
        shareCacheCapacity: Int = 64,
        writes: [Write],
        mainReads: [Read],
        shareReads: [Read] = [],
        shareSessionStarts: [Int64] = [],
        activations: [Activation] = []
    ) {
        self.durationNs = durationNs
        self.keys = keys
        self.mainCacheCapacity = mainCacheCapacity
        self.shareCacheCapacity = shareCacheCapacity
        self.writes = writes
        self.mainReads = mainReads
        self.shareReads = shareReads
        self.shareSessionStarts = shareSessionStarts
        self.activations = activations
    }

    public init(scenario s: InvalidationScenario, seed: UInt64) {
        durationNs = s.duration.nanoseconds
        keys = s.keys
        mainCacheCapacity = s.mainCacheCapacity
        shareCacheCapacity = s.shareCacheCapacity
        var keyRNG = SeededGenerator.stream(1, of: seed)
        func key() -> Int {
            if keyRNG.nextUnit() < s.hotFraction { return Int(keyRNG.nextInt(in: 0...Int64(s.hotKeys - 1))) }
            return Int(keyRNG.nextInt(in: 0...Int64(s.keys - 1)))
        }
        func keySet() -> [Int] {
            let n = Int(keyRNG.nextInt(in: 1...Int64(s.maxKeysPerWrite)))
            var chosen: [Int] = []
            while chosen.count < n {
                let k = key()
                if !chosen.contains(k) { chosen.append(k) }
            }
            return chosen.sorted()
        }
        let end = s.duration.nanoseconds
        func arrivals(_ rate: Double, stream: UInt64, from start: Int64 = 0, until stop: Int64 = end) -> [Int64] {
            guard rate > 0 else { return [] }
            var rng = SeededGenerator.stream(stream, of: seed)
            var t = Double(start)
            var out: [Int64] = []
            while true {
                t += -DeterministicMath.log(rng.nextOpenUnit()) / rate * 1e9
                guard t < Double(stop) else { return out }
                out.append(Int64(t))
            }
        }
        let active = { (t: Int64) in s.isActive(at: SimInstant(nanoseconds: t)) }
        var writes: [Write] = []
        for t in arrivals(s.mainWritesPerSecond, stream: 2) where active(t) { writes.append(Write(timeNs: t, role: .main, keys: keySet())) }
        for t in arrivals(s.nsePushesPerSecond, stream: 3) { writes.append(Write(timeNs: t, role: .nse, keys: keySet())) }
        mainReads = arrivals(s.mainReadsPerSecond, stream: 4).filter(active).map { Read(timeNs: $0, key: key()) }
        var shareReads: [Read] = []
        var starts: [Int64] = []
        var lastEnd: Int64 = -1
        for start in arrivals(s.shareSessionsPerSecond, stream: 5) where start > lastEnd {
            // One extension process at a time: a session that would overlap the previous is dropped.
            let stop = min(end, start + s.shareSessionLength.nanoseconds)
            starts.append(start)
            shareReads += arrivals(s.shareReadsPerSecond, stream: 6 &+ UInt64(starts.count), from: start, until: stop)
                .map { Read(timeNs: $0, key: key()) }
            writes.append(Write(timeNs: stop, role: .share, keys: keySet()))
            lastEnd = stop
        }
        // Stable order: by time, then role, so simultaneous writes are ordered the same everywhere.
        let order: [ProcessRole: Int] = [.main: 0, .nse: 1, .share: 2]
        self.writes = writes.sorted { ($0.timeNs, order[$0.role]!) < ($1.timeNs, order[$1.role]!) }
        self.shareReads = shareReads
        shareSessionStarts = starts
        var activations: [Activation] = []
        if let a = s.activeFor, let i = s.inactiveFor {
            var t: Int64 = 0
            while true {
                t += a.nanoseconds
                guard t < end else { break }
                activations.append(Activation(timeNs: t, active: false))
                t += i.nanoseconds
                guard t < end else { break }
                activations.append(Activation(timeNs: t, active: true))
            }
        }
        self.activations = activations
    }
}
