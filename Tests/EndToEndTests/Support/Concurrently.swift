import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs each body on a thread of its own, all at once, and returns their results in the order
/// given once every one has finished; rethrows the first error (in that order) once all are done.
///
/// For tests whose scenarios each spend seconds waiting (a run signalled after 1.5 s) or leave a
/// core idle (a `--jobs 1` run): run one after another, their times add up; run side by side,
/// the test takes as long as its slowest scenario (`swift test` within 180 s). Each
/// scenario still runs and asserts in full. Threads, not Dispatch or the cooperative pool, whose
/// width on a 2-core machine is 2: a body blocks for seconds on purpose. XCTest's assertions
/// record into the running test from any thread. Each thread unblocks every signal first
/// (`withSignalsUnblocked`).
///
/// The bodies are not `@Sendable`: each is the caller's, and the caller waits here until all have
/// returned, so what they capture must only be safe to use from several threads at once (their
/// own arguments, files and processes; the test's assertions). Results come back through a lock.
func concurrently<T>(_ bodies: [() throws -> T]) throws -> [T] {
    let results = Locked<[Int: Result<T, any Error>]>([:])
    let done = DispatchGroup()
    for (index, body) in bodies.enumerated() {
        done.enter()
        let body = UncheckedBody(run: body)
        let thread = Thread {
            defer { done.leave() }
            let result = Result { try withSignalsUnblocked(body.run) }
            results.withLock { $0[index] = result }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
    done.wait()
    return try results.withLock { all in try bodies.indices.map { try all[$0]!.get() } }
}

/// A body handed to another thread; `concurrently` says why that is safe.
private struct UncheckedBody<T>: @unchecked Sendable {
    let run: () throws -> T
}

/// Runs `body` on a thread of its own and waits for it without holding a thread of Swift
/// concurrency's pool: Swift Testing runs its tests as tasks on that pool, as wide as the machine
/// has cores (2 here), so tests that block for seconds would otherwise wait for each other. The
/// thread unblocks every signal first (`withSignalsUnblocked`).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try withSignalsUnblocked(body) }) }
        thread.stackSize = 1 << 22
        thread.start()
    }
}

/// Runs `body` with no signal blocked on this thread. A new thread inherits its creator's signal
/// mask, and a process started from it inherits the thread's: started from one of Swift
/// concurrency's threads, which block signals, a bench-* run would never see the SIGINT or
/// SIGTERM a test sends it (seen: HarnessInterruptTests' runs went on until the test's 30 s
/// limit and were SIGKILLed). Unblocked, a run starts as it does from a shell.
func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
    var none = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, nil)
    return try body()
}
