import Foundation
import Simulation
import Synchronization

/// A short check that a lock excludes: two threads enter it in turn, and each body holds it for
/// 200 µs of sleep while counting how many bodies are inside.
///
/// The sleep is what makes it reliable on a small loaded machine: a thread sleeping inside the body
/// still *holds* it, so the other thread needs no core at the same moment to walk in — a lock that
/// does not exclude lets it in within the first few entries, even on one core. A lock that does
/// exclude never shows two holders, whatever the load (the count is atomic). At most
/// 2 × `entries` × 200 µs of sleep: about 10 ms for a correct lock.
struct ExclusionProbe: Sendable {
    var entries = 25

    /// The first overlap: the entry (0-based, of thread `thread`) that found another body inside.
    struct Overlap: Sendable, Equatable, CustomStringConvertible {
        var thread: Int
        var entry: Int
        var holders: Int
        var description: String { "exclusion probe entry \(entry) of thread \(thread): \(holders) bodies inside at once" }
    }

    /// Runs the probe through `enter`, which must run its argument under the lock once.
    func run(_ enter: @escaping @Sendable (_ body: () -> Void) -> Void) -> Overlap? {
        let inside = Atomic<Int>(0)
        // A pthread mutex, not Synchronization.Mutex: TSan cannot see Mutex's contended path on
        // Linux, and the probe's own bookkeeping must not be reported as a race.
        let found = LockedState<Overlap?>(nil)
        let group = DispatchGroup()
        for thread in 0..<2 {
            group.enter()
            Thread {
                for entry in 0..<entries where found.withLock({ $0 == nil }) {
                    enter {
                        let holders = inside.add(1, ordering: .sequentiallyConsistent).newValue
                        usleep(200)
                        let still = inside.load(ordering: .sequentiallyConsistent)
                        if max(holders, still) > 1 {
                            found.withLock { if $0 == nil { $0 = Overlap(thread: thread, entry: entry, holders: max(holders, still)) } }
                        }
                        inside.subtract(1, ordering: .sequentiallyConsistent)
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        return found.withLock { $0 }
    }
}
