import Foundation
import Simulation
import Synchronization

/// `concurrent-first-use`: threads released at the same instant resolve the same services for the
/// first time, as the main thread and background registrations do at launch. Counts constructions
/// beyond one per service.
package enum ConcurrentFirstUse {
    package struct Result: Sendable {
        package var duplicates: Int
        package var constructions: Int
    }

    /// - Parameter constructionCost: CPU each factory burns (a service's initializer).
    package static func run(
        strategy: GlobalsStrategy,
        services: Int,
        threads: Int,
        seed: UInt64,
        constructionCost: SimDuration = .microseconds(50),
        clock: any MonotonicClock = SystemMonotonicClock()
    ) -> Result {
        let registry = ServiceRegistry(strategy: strategy, services: services) { i in
            clock.burn(until: clock.now() + constructionCost)
            return i
        }
        if strategy == .eager { registry.buildAll() }
        // One seeded order for every thread: launch code paths touch the same services in the
        // same order (the session, the database, the account manager, ...).
        var g = SeededGenerator(seed: seed)
        var order = Array(0..<services)
        for i in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(i, Int(g.nextInt(in: 0...Int64(i))))
        }
        let walk = order
        let start = clock.now() + .milliseconds(20)
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                clock.sleep(until: start)
                for i in walk { _ = registry.resolve(i) }
                group.leave()
            }.start()
        }
        group.wait()
        return Result(duplicates: registry.duplicates, constructions: registry.totalConstructions)
    }
}
