import Foundation
import Simulation
import Synchronization

/// A short check that a lock excludes: one thread holds it while a second knocks, in a few
/// rounds, and each body counts how many bodies are inside.
///
/// Two threads that merely take turns may never meet: on a loaded 2-core machine the second
/// thread can start after the first has finished all its entries, so a lock that does not exclude
/// passed a probe of independent entries now and then (3–4 probes of 100 on a loaded machine).
/// Here the threads meet by construction. In each round the holder enters, lets the knocker go, and
/// once the knocker is about to call the lock it stays inside until the knocker's body has started
/// or `patience` sleeps of at least 50 µs have passed. A lock that does not exclude lets the
/// knocker in while the holder is still inside, so the knocker's body counts two; the holder
/// sleeps, so the knocker needs no second core, only to be scheduled within the patience (about
/// 2 ms, in each of the rounds). A lock that excludes never shows two holders, whatever the load;
/// it costs each round's full patience: 11–16 ms a probe, measured on the 2-core machine.
struct ExclusionProbe: Sendable {
    var rounds = 5
    /// Polls of the holder's wait for the knocker's body, each a sleep of at least 50 µs.
    var patience = 20

    /// The first overlap: the round (0-based) in which thread `thread` found another body inside.
    struct Overlap: Sendable, Equatable, CustomStringConvertible {
        var thread: Int
        var entry: Int
        var holders: Int
        var description: String { "exclusion probe round \(entry) of thread \(thread): \(holders) bodies inside at once" }
    }

    /// Runs the probe through `enter`, which must run its argument under the lock once.
    func run(_ enter: @escaping @Sendable (_ body: () -> Void) -> Void) -> Overlap? {
        let state = ExclusionProbeState()
        let rounds = self.rounds
        let knocker = DispatchGroup()
        knocker.enter()
        Thread {
            for round in 0..<rounds {
                state.holding.wait()
                state.knocking.signal()
                enter {
                    state.count(thread: 1, round: round)
                    state.knockerInside.store(true, ordering: .sequentiallyConsistent)
                    state.inside.subtract(1, ordering: .sequentiallyConsistent)
                }
                state.done.signal()
            }
            knocker.leave()
        }.start()
        for round in 0..<rounds {
            state.knockerInside.store(false, ordering: .sequentiallyConsistent)
            enter {
                state.count(thread: 0, round: round)
                state.holding.signal()
                state.knocking.wait()
                // The knocker is at the door: a lock that excludes keeps it there.
                var polls = 0
                while !state.knockerInside.load(ordering: .sequentiallyConsistent), polls < patience {
                    usleep(50)
                    polls += 1
                }
                state.inside.subtract(1, ordering: .sequentiallyConsistent)
            }
            state.done.wait()
        }
        knocker.wait()
        return state.found.withLock { $0 }
    }
}

/// What the probe's two threads share: the count of bodies inside and the three handshakes.
final class ExclusionProbeState: Sendable {
    let inside = Atomic<Int>(0)
    let knockerInside = Atomic<Bool>(false)
    /// The holder is inside: the knocker may knock.
    let holding = DispatchSemaphore(value: 0)
    /// The knocker is about to call the lock.
    let knocking = DispatchSemaphore(value: 0)
    /// The knocker's call returned: the next round may start.
    let done = DispatchSemaphore(value: 0)
    // A pthread mutex, not Synchronization.Mutex: TSan cannot see Mutex's contended path on
    // Linux, and the probe's own bookkeeping must not be reported as a race.
    let found = LockedState<ExclusionProbe.Overlap?>(nil)

    /// Enters a body: counts it in and keeps the first overlap.
    func count(thread: Int, round: Int) {
        let holders = inside.add(1, ordering: .sequentiallyConsistent).newValue
        guard holders > 1 else { return }
        found.withLock { if $0 == nil { $0 = ExclusionProbe.Overlap(thread: thread, entry: round, holders: holders) } }
    }
}
