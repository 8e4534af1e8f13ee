import Foundation
import Synchronization

/// The app's services built by one of the three `GlobalsStrategy`s, counting every construction.
///
/// - `eager`: `buildAll()` constructs each service once, in order, before anyone resolves one.
/// - `lazy-registry`: the article's closure registry, as Session iOS's `Dependencies` does it —
///   look up under the lock, and if absent call the factory *outside* the lock, then store:
///   check-then-create, so two first uses racing each build an instance.
/// - `lazy-once`: the lookup and the factory run under one lock per service: exactly once.
package final class ServiceRegistry: @unchecked Sendable {
    // `instances` is protected by `table`; each service's once-lock by `onceLocks[i]`;
    // `constructions` is atomic.
    private let strategy: GlobalsStrategy
    private let factory: @Sendable (Int) -> Int
    private let table: Mutex<[Int?]>
    private let onceLocks: [OnceCell]
    private let constructions = Atomic<Int>(0)

    /// `factory(i)` builds service `i` (and burns the time construction takes).
    package init(strategy: GlobalsStrategy, services: Int, factory: @escaping @Sendable (Int) -> Int) {
        self.strategy = strategy
        self.factory = factory
        table = Mutex(Array(repeating: nil, count: services))
        onceLocks = (0..<services).map { _ in OnceCell() }
    }

    private func construct(_ i: Int) -> Int {
        constructions.add(1, ordering: .relaxed)
        return factory(i)
    }

    /// Signal's `initGlobals`: everything, in order.
    package func buildAll() {
        for i in 0..<onceLocks.count { _ = resolve(i) }
    }

    package func resolve(_ i: Int) -> Int {
        switch strategy {
        case .eager, .lazyRegistry:
            if let existing = table.withLock({ $0[i] }) { return existing }
            let made = construct(i)  // outside the lock: the article's race
            table.withLock { $0[i] = made }
            return made
        case .lazyOnce:
            let cell = onceLocks[i]
            cell.lock.lock()
            defer { cell.lock.unlock() }
            if let existing = cell.value { return existing }
            let made = construct(i)
            cell.value = made
            return made
        }
    }

    /// Constructions beyond one per service.
    package var duplicates: Int { max(0, constructions.load(ordering: .relaxed) - onceLocks.count) }
    package var totalConstructions: Int { constructions.load(ordering: .relaxed) }
}

/// One service's once: `value` is protected by `lock`, held across the factory call.
private final class OnceCell: @unchecked Sendable {
    let lock = NSLock()
    var value: Int?
}
