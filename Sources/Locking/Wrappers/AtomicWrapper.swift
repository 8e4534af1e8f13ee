/// The whole-atomic-wrapper role of bench-atomics: a value with its own synchronisation, for a
/// design that is more than "a lock around the value" (a reader-writer lock whose reads share, a
/// seqlock, a copy-on-write box, …).
///
/// A user's wrapper is generic over its value and registered with one line
/// (`LockVariant(name:origin:summary:wrapper:)` in `Suite.locks`, passing `MyWrapper<UInt64>.self`);
/// bench-atomics runs the counter-like scenarios and `different-atomics` on it (`flag` keeps 0 or 1 in
/// the value, `transition` counts in it), and with `array:`/`dictionary:` also the collection ones.
///
/// The contract:
/// - `init(_:)` is called on the measuring thread before the workers start (one object per worker
///   in `different-atomics`), never during a measurement.
/// - `withValue` and `update` are called from up to `--threads` worker threads at once; each runs
///   its `body` exactly once. `update`'s body must see every earlier `update`'s result and no
///   concurrent one (a lost update is counted and fails the run); `withValue`'s body only reads and
///   may run beside other `withValue` bodies. Neither may block forever.
/// - Bodies may do measured work (`--cs-work`) inside: hold the synchronisation for the whole body.
public protocol AtomicWrapper<Value>: AnyObject, Sendable {
    /// The value it guards.
    associatedtype Value

    /// Creates the wrapper holding `value`.
    init(_ value: Value)

    /// Runs `body` on the current value (a read: may be shared with other reads).
    func withValue<Result>(_ body: (Value) -> Result) -> Result

    /// Runs `body` on the value with exclusive access: a read-modify-write no other call interleaves.
    func update<Result>(_ body: (inout Value) -> Result) -> Result
}
