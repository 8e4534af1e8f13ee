@testable import Locking

extension ThreadTeam {
    /// Runs `body` on `count` threads that wait at one start line and are released together, so
    /// they race for whatever `body` contends on as closely as the scheduler allows.
    static func race(count: Int, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let line = StartLine()
        try run(
            count: count,
            coordinator: { started in
                line.waitForArrivals(started)
                line.release()
            }
        ) { _ in
            line.arriveAndWait()
            body()
        }
    }
}
