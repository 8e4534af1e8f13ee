@testable import Locking

/// Runs `body` on `threads` threads released together from one `StartLine`: the racers of the
/// exactly-one-winner tests (the suite's wrappers and Signal's atomics).
func raceTogether(threads: Int = 4, _ body: @escaping @Sendable () -> Void) throws(ThreadTeam.StartError) {
    let line = StartLine()
    _ = try ThreadTeam.run(
        count: threads,
        coordinator: { started in
            line.waitForArrivals(started)
            line.release()
        }
    ) { _ in
        line.arriveAndWait()
        body()
    }
}
