import BenchSuite
import FanOut
import Foundation
import Measurement

/// With `SUITE_FIXTURE_TWIN` set: a user's fan-out shape identical to the suite's `hedged`, as a
/// stranger's first shape turned out to be (SuiteStrangerTests).
func registerFixtureTwins(_ suite: inout Suite) throws(BenchFailure) {
    guard ProcessInfo.processInfo.environment["SUITE_FIXTURE_TWIN"] != nil else { return }
    try suite.fanOuts.register(
        FanOutVariant(
            name: "my-first-shape",
            origin: .user,
            summary: "a task group, hedged, cancelling on the first failure",
            shape: FanOutShape(issue: .concurrent, join: .suspend, onFailure: .cancelOnFirst, hedged: true)
        )
    )
}
