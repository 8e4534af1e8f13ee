import XCTest

/// bench-skeleton as a user runs it: the default matrix equals the committed baseline and meets its
/// thresholds, it does not depend on --jobs, and bad input is one line and exit 64. What every
/// workload's end-to-end test does the same way is `WorkloadTool`'s; this file passes what differs.
final class BenchSkeletonTests: XCTestCase {
    let bench = WorkloadTool("skeleton")

    /// The default run passes the committed gate (its claims of results/thresholds.json, the
    /// baseline slice); the control: a changed model (a slower handler) is caught by the baseline.
    func testDefaultRunMatchesBaselineAndThresholds() throws {
        try bench.assertDefaultRunPassesAndAChangeIsCaught(atLeast: 1, change: ["--handler-cost-ms", "6"])
    }

    func testDeterministicPerSeedAndForAnyJobs() throws {
        try bench.assertDeterministicForAnyJobs(["--seeds", "2"], otherSeed: "7")
    }

    func testBadInputIsOneLineAndAUsageExit() throws {
        let cases = WorkloadTool.cases(
            """
            --interval-ms -1 | --interval-ms
            --variant nope | nope
            --scenario nope | nope
            """
        )
        try bench.assertOneLineErrors(cases, status: 64)
    }
}
