import BenchCommandLine

/// Live mode: filled in below.
struct LiveRunner {
    let plan: RunPlan
    func run() throws { throw BenchFailure.unavailable("live mode is not built yet") }
}
