import XCTest

@testable import Lifecycle

/// One refresh window's arithmetic: retries, own timeout, resumable progress.
final class SyncAttemptsTests: XCTestCase {
    func draws(fails: [Bool], fraction: Double = 0.5) -> CostDraws {
        CostDraws(
            saveFactor: [1],
            initItems: [0],
            observers: [0],
            syncWork: [0],
            attemptFails: fails,
            attemptFraction: [fraction]
        )
    }

    let s: Int64 = 1_000_000_000

    func run(_ policy: LifecyclePolicy.Refresh, backlog: inout Int64, work: Int64, fails: [Bool]) -> SyncAttempts.Outcome {
        SyncAttempts.run(
            policy: policy,
            backlog: &backlog,
            newWork: work,
            draws: draws(fails: fails),
            window: 0,
            budget: 30 * s,
            backoff: 2 * s,
            cap: 60 * s
        )
    }

    func testARetryRescuesAFailedAttempt() {
        var b: Int64 = 0
        XCTAssertFalse(run(.init(expirationHandler: false), backlog: &b, work: 10 * s, fails: [true, false, false]).succeeded)
        b = 0
        let retried = run(.init(expirationHandler: true, retries: 2), backlog: &b, work: 10 * s, fails: [true, false, false])
        XCTAssertTrue(retried.succeeded)
        XCTAssertEqual(retried.elapsed, 5 * s + 2 * s + 10 * s, "half done, back-off, start over")
    }

    func testWorkLongerThanTheWindowExpiresUnlessItStopsItself() {
        var b: Int64 = 0
        let expired = run(.init(expirationHandler: true), backlog: &b, work: 40 * s, fails: [false])
        XCTAssertTrue(expired.expired)
        XCTAssertEqual(b, 40 * s, "starts over next time")
        b = 0
        let own = run(.init(expirationHandler: false, ownTimeoutSeconds: 27, resumable: true), backlog: &b, work: 40 * s, fails: [false])
        XCTAssertFalse(own.expired)
        XCTAssertEqual(own.elapsed, 27 * s)
        XCTAssertEqual(b, 13 * s, "resumable: the rest is left")
        XCTAssertTrue(
            run(.init(expirationHandler: false, ownTimeoutSeconds: 27, resumable: true), backlog: &b, work: 0, fails: [false]).succeeded
        )
    }
}
