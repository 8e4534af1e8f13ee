/// One BGAppRefreshTask window's sync: attempts, retries and the time limit, as plain arithmetic.
///
/// The backlog is the work the next sync must do: for a resumable sync (progress committed as it
/// goes, as Signal's message fetch does) what is left; for one that starts over, everything since
/// the last success (capped at a full resync).
enum SyncAttempts {
    struct Outcome {
        var succeeded: Bool
        /// Hit the OS's budget (rather than finishing or stopping at its own timeout).
        var expired: Bool
        var elapsed: Int64
    }

    static func run(
        policy: LifecyclePolicy.Refresh,
        backlog: inout Int64,
        newWork: Int64,
        draws: CostDraws,
        window: Int,
        budget: Int64,
        backoff: Int64,
        cap: Int64
    ) -> Outcome {
        backlog = min(cap, backlog + newWork)
        var limit = budget
        if let own = policy.ownTimeoutSeconds {
            // Within [0, budget] before the conversion: a NaN or infinite timeout (which fails the
            // item, `LifecycleContract.ownTimeoutPositive`) must not trap the run on its way there.
            let nanoseconds = own.isNaN ? Double(budget) : min(Double(budget), max(0, own * 1e9))
            limit = Int64(nanoseconds.rounded())
        }
        var elapsed: Int64 = 0
        var remaining = backlog
        var succeeded = false
        for a in 0...max(0, policy.retries) {
            let (fails, fraction) = draws.attempt(window * 3 + a)
            if !fails {
                if elapsed + remaining <= limit {
                    elapsed += remaining
                    remaining = 0
                    succeeded = true
                } else {
                    if policy.resumable { remaining -= limit - elapsed }
                    elapsed = limit
                }
                break
            }
            let failAt = Int64((Double(remaining) * fraction).rounded())
            if elapsed + failAt >= limit {
                if policy.resumable { remaining -= limit - elapsed }
                elapsed = limit
                break
            }
            elapsed += failAt
            remaining = policy.resumable ? remaining - failAt : backlog
            if a == policy.retries { break }
            elapsed = min(limit, elapsed + backoff)
            if elapsed >= limit { break }
        }
        backlog = succeeded ? 0 : (policy.resumable ? max(0, remaining) : backlog)
        return Outcome(succeeded: succeeded, expired: !succeeded && elapsed >= budget, elapsed: elapsed)
    }
}
