import Foundation
import Locking

/// A lock: an `NSLock` behind the `LockStrategy` role (the suite's wrappers run every scenario on it).
public final class MyLock: LockStrategy, @unchecked Sendable {
    private let lock = NSLock()  // the only state: NSLock is thread-safe
    public init() {}
    public func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
