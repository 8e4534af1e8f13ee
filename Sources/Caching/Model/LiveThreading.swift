/// How live mode shares a cache between its threads (1–16 threads call `get` or `set` at once).
public enum LiveThreading: String, Sendable, Hashable {
    /// The harness wraps the cache in one lock (`Mutex`) around every call: a single-threaded
    /// design (the suite's lru, fifo, random, s3-fifo) needs no lock of its own. The default.
    case lockedByHarness = "harness-lock"
    /// The type is thread-safe itself and is shared bare (signal-2021's lock, NSCache's).
    case threadSafe = "own-lock"
    /// No lock at all, as Signal shipped its 2018 cache: measured with one thread only.
    case singleThreaded = "single-thread"
}
