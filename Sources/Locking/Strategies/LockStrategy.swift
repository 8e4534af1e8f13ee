/// The lock role of bench-atomics: a way to run a closure with mutual exclusion, the one thing the
/// suite's atomic wrappers (`AtomicValue`, `AtomicFlag`, `AtomicState`, `AtomicArray`,
/// `AtomicDictionary`) need from a lock.
///
/// The wrappers are generic over this protocol so that each strategy is specialised into the same
/// wrapper code and the only difference between two measurements is the lock itself. Strategies are
/// classes (shared by reference, allocated once) and `Sendable` because sharing them across
/// threads is their purpose.
///
/// A user's lock conforms and is registered with one line (`LockVariant(name:origin:summary:lock:)`
/// in `Suite.locks`); bench-atomics then runs every scenario on the suite's wrappers over it, on
/// real threads, beside the suite's locks and the C reference. The contract:
/// - `init()` makes an unlocked lock. It is called on the measuring thread before the workers start,
///   once per wrapper object (one per worker in `different-atomics`), and never during a measurement.
/// - `withLock` is called from up to `--threads` worker threads at once, millions of times a second,
///   with a `body` that must run exactly once, with no other `body` of the same lock running. It must
///   return `body`'s result, must not block forever (a hang is killed by `--item-timeout`), and may not
///   allocate if it is to compare with the suite's locks (allocations are counted per operation).
/// - The body never throws and never re-enters the same lock: a non-recursive lock is enough.
///
/// The rule the harness checks on every item (`LockContract`, the contract table in
/// docs/your-own-variant.md): no two bodies of one lock run at once, so no update is lost (except
/// the declared unsynchronized control). A lock that lets a second body in fails its item.
public protocol LockStrategy: AnyObject, Sendable {
    /// Creates a lock in the unlocked state.
    init()

    /// Runs `body` while holding the lock and returns its result.
    func withLock<Result>(_ body: () -> Result) -> Result
}
