import Foundation
import Measurement
import Testing

/// bench-readiness' live probes, in child processes: the article's class traps on re-entry and
/// deadlocks on a cross-thread wait; Signal's flag-first design does neither (the control). No
/// child survives.
///
/// Swift Testing, not XCTest (`swift test` within 180 s): the run waits out three 3 s
/// watchdogs, side by side with the other waiting tests (on a thread of its own, `onThread`). A
/// failed expectation fails `swift test` as an XCTest failure does. The watchdog is the tool's
/// default, 3 s, not 1 s: it runs from the child's spawn, and at load 13 (CI's builds beside
/// `swift test`, other sessions) one of Signal's probes once took longer than 1 s to start and
/// finish, and was counted as a deadlock.
@Suite struct BenchReadinessProbeTests {
    @Test func liveProbesCountTrapsAndDeadlocks() async throws {
        let mark = RunMark()
        let run = try await WaitedRun(
            "bench-readiness",
            [
                "--mode", "live", "--scenario", "reentrant-tasks,concurrent-first-use", "--variant", "signal,article-lightweight",
                "--globals", "lazy-registry,lazy-once", "--attempts", "1", "--watchdog-s", "3", "--seeds", "3", "--quiet",
            ],
            document: "readiness.json",
            environment: mark.environment
        )
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let doc = try #require(run.document)
        func sum(_ variant: String, _ metric: String) -> Double {
            doc.records.filter { $0.variant == variant && $0.metric == metric }.reduce(0) { $0 + $1.value }
        }
        #expect(sum("article-lightweight", "reentry_traps") == 3)
        #expect(sum("article-lightweight", "deadlocks") == 3)
        #expect(sum("signal", "reentry_traps") == 0)
        #expect(sum("signal", "deadlocks") == 0)
        #expect(sum("signal", "probes_completed") == 6)
        func duplicates(_ globals: String) -> Double {
            doc.records.filter { $0.factors["globals"] == globals && $0.metric == "duplicate_constructions" }.reduce(0) { $0 + $1.value }
        }
        #expect(duplicates("lazy-registry") > 0)
        #expect(duplicates("lazy-once") == 0)
        // The probe's hidden role flag, in this run's processes.
        #expect(mark.processes(commandLineContaining: ["--readiness-probe", "bench-readiness"]) == [], "every probe child was reaped")
    }
}
