/// One sampled operation of one worker: when it asked for the lock, when it held it, when it let
/// go (clock nanoseconds). The timeline draws `wait` from `start` to `acquired` and `hold` from
/// `acquired` to `released`; a lock-free operation (`acquired` nil) is one `operation` slice.
///
/// `acquired` and `released` are read inside the critical section, first and last thing, so two
/// threads' holds of one lock never overlap on the timeline (a lock convoy shows as holds end to
/// end with waits stacked beside them); a sampled wait covers the lock call itself.
package struct LockSample: Sendable, Hashable, Codable {
    package var start: UInt64
    package var acquired: UInt64?
    package var released: UInt64

    package init(start: UInt64, acquired: UInt64?, released: UInt64) {
        self.start = start
        self.acquired = acquired
        self.released = released
    }
}

/// How a run samples its operations for the timeline (`--perfetto`, `--events` on bench-atomics).
///
/// Every `every`-th batch a worker runs one operation more, with clock reads around and inside
/// its critical section, up to `limit` per worker and repetition. Sampling rather than timing
/// every operation keeps what the timeline costs under 1 % of the measured time (docs/analysis.md
/// has the measurement): at 32 operations a batch, one operation in 4,097 carries three clock reads
/// (every 64th batch cost 0.9–1.0 % of the CPU time of the fastest operation, a 4.7 ns atomic add).
package struct LockSampling: Sendable, Hashable {
    package var every: Int
    package var limit: Int

    package init(every: Int = 128, limit: Int = 5000) {
        self.every = max(1, every)
        self.limit = max(0, limit)
    }
}

extension ContentionTarget {
    /// One operation, timed as a whole: the lock-free targets have no lock to wait for.
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let start = now()
        perform(1, &state)
        return LockSample(start: start, acquired: nil, released: now())
    }
}
