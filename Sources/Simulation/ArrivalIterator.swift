/// Generates an `ArrivalModel`'s commits lazily, in time order, up to the end of the window.
///
/// Lazy so that a ten-million-commit trace costs no memory; deterministic so that regenerating
/// it for each policy gives every policy the very same commits.
public struct ArrivalIterator: IteratorProtocol, Sendable {
    /// The version of the arrival stream: which commits a model and a seed give. 1 until the ziggurat
    /// (each exponential gap `−mean · log U`, with `DeterministicMath.log`'s exact series); 2 since
    /// (`ExponentialZiggurat`, no division on its fast path). The same seed gives other commits in
    /// each version, so every virtual-time value fed by arrivals moves between them: each throttle
    /// run records its version (`random_stream_version` in the JSON metadata) and bench-gate
    /// refuses to compare deterministic values of two versions.
    public static var streamVersion: Int { 2 }

    let model: ArrivalModel
    let end: SimInstant
    /// `end.seconds`, the bound `nextTime` checks, computed once (it is a division).
    let limit: Double
    var timing: SeededGenerator
    var sizes: SeededGenerator
    /// The exponential's tables (`ExponentialZiggurat.shared`), held so the hot path reads them
    /// without the global's once-check.
    let ziggurat = ExponentialZiggurat.shared
    /// The model's row distribution with its constants precomputed (the same rows, faster).
    let rows: RowSampler
    /// The Poisson model's mean gap, `1 / rate`, computed once (the same value every time).
    let poissonMean: Double
    var now: Double = 0  // seconds; converted once per commit

    // State for the modulated and burst models.
    var inBurst = false
    var stateEnds: Double = 0
    var burstRemaining: Int = 0
    var nextBurstStart: Double = 0

    public init(model: ArrivalModel, seed: UInt64, duration: SimDuration) {
        self.model = model
        self.end = SimInstant.zero + duration
        self.limit = end.seconds
        self.timing = .stream(1, of: seed)
        self.sizes = .stream(2, of: seed)
        switch model {
        case let .poisson(_, r), let .onOff(_, _, _, r), let .markovModulated(_, _, _, _, r),
            let .paretoBursts(_, _, _, _, r), let .syncStorm(r, _, _, _, _):
            self.rows = RowSampler(r)
        }
        if case let .poisson(rate, _) = model { poissonMean = 1 / rate } else { poissonMean = 0 }
        switch model {
        case let .markovModulated(_, _, meanCalm, _, _):
            stateEnds = exponential(mean: meanCalm)
        case let .paretoBursts(burstRate, _, _, _, _):
            nextBurstStart = exponential(mean: 1 / burstRate)
        default:
            break
        }
    }

    /// An iterator with no commits (an empty window), for a `CommitTrace.Iterator` of another
    /// source, which keeps one in place of an optional.
    static var placeholder: ArrivalIterator {
        ArrivalIterator(model: .poisson(rate: 1, rows: .fixed(1)), seed: 0, duration: .zero)
    }

    @inline(__always) mutating func exponential(mean: Double) -> Double {
        mean * ziggurat.next(&timing)
    }

    public mutating func next() -> Commit? {
        guard let t = nextTime() else { return nil }
        let time = SimInstant.zero + .seconds(t)
        guard time < end else { return nil }
        return Commit(time: time, rows: max(1, rows.sample(&sizes)))
    }

    @inline(__always) mutating func nextTime() -> Double? {
        switch model {
        case .poisson:
            now += exponential(mean: poissonMean)
        case let .onOff(rate, on, off, _):
            now += exponential(mean: 1 / rate)
            let period = on + off
            // Skip silent phases: an arrival that lands in "off" moves to the next "on".
            let phase = now - (now / period).rounded(.down) * period
            if phase >= on { now += period - phase }
        case let .markovModulated(calmRate, burstRate, meanCalm, meanBurst, _):
            while true {
                let rate = inBurst ? burstRate : calmRate
                let candidate = now + exponential(mean: 1 / rate)
                if candidate < stateEnds {
                    now = candidate
                    break
                }
                // Memorylessness: restart the clock at the state change.
                now = stateEnds
                inBurst.toggle()
                stateEnds = now + exponential(mean: inBurst ? meanBurst : meanCalm)
                if now >= limit { return nil }
            }
        case let .paretoBursts(burstRate, alpha, minCommits, gap, _):
            if burstRemaining == 0 {
                now = max(now, nextBurstStart)
                let u = timing.nextOpenUnit()
                let size = minCommits / DeterministicMath.pow(u, 1 / alpha)
                burstRemaining = Int(min(size.rounded(.down), 100_000))
                nextBurstStart = now + exponential(mean: 1 / burstRate)
            } else {
                now += gap
            }
            burstRemaining -= 1
        case let .syncStorm(_, minGap, maxGap, storm, afterRate):
            if now < storm {
                now += minGap + (maxGap - minGap) * timing.nextUnit()
            } else if afterRate > 0 {
                now += exponential(mean: 1 / afterRate)
            } else {
                return nil
            }
        }
        return now < limit ? now : nil
    }
}
