import Foundation

/// `nslock`: Foundation's `NSLock`, which on Linux is a heap-allocated default pthread mutex behind
/// an Objective-C-style class: what Signal's code uses when it reaches for "a lock".
package final class FoundationLock: LockStrategy, @unchecked Sendable {
    // NSLock is thread-safe by design; it is the lock.
    let lock = NSLock()

    package init() {}

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
