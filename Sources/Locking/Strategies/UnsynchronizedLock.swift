/// `unsynchronized`: no lock at all. The control that shows what the others prevent: with two or
/// more threads its read-modify-write operations lose updates.
///
/// Only for the counter-like operations (increment, read-mostly, flag, transition); concurrent
/// unsynchronised mutation of an array or dictionary would corrupt the heap rather than lose counts.
package final class UnsynchronizedLock: LockStrategy, @unchecked Sendable {
    // Deliberately unprotected: this type exists to demonstrate the data race.
    package init() {}

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        body()
    }
}
