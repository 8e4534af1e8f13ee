/// A way to run a closure with mutual exclusion: the one thing the atomic wrappers need from a lock.
///
/// The wrappers are generic over this protocol so that each strategy is specialised into the same
/// wrapper code and the only difference between two measurements is the lock itself. Strategies are
/// classes (shared by reference, allocated once) and `Sendable` because sharing them across
/// threads is their purpose.
package protocol LockStrategy: AnyObject, Sendable {
    /// Creates a lock in the unlocked state.
    init()

    /// Runs `body` while holding the lock and returns its result.
    func withLock<Result>(_ body: () -> Result) -> Result
}
