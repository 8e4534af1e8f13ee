import CLockShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a fixed number of raw pthreads, runs a body on each, and joins them.
///
/// Raw pthreads rather than Dispatch or Swift concurrency: the benchmark needs exactly N OS
/// threads that exist for the whole measurement, optionally pinned to a CPU each.
package enum ThreadTeam {
    package struct StartError: Error, CustomStringConvertible {
        package var code: Int32
        package var description: String { "pthread_create failed: \(String(cString: strerror(code)))" }
    }

    /// Runs `body(i)` for i in 0..<count, each on its own thread; meanwhile runs `coordinator` on
    /// the calling thread with the number of threads actually started (fewer than `count` only
    /// when a `pthread_create` failed, in which case the error is thrown after the join), then
    /// joins them all. With `pinning`, thread i is pinned to CPU
    /// i mod `cpuCount`. Returns how many threads could not be pinned.
    @discardableResult
    package static func run(
        count: Int,
        pinning: Bool = false,
        cpuCount: Int = 1,
        coordinator: (_ started: Int) -> Void = { _ in },
        _ body: @escaping @Sendable (Int) -> Void
    ) throws(StartError) -> Int {
        let pinFailures = PinFailures()
        var threads: [pthread_t] = []
        threads.reserveCapacity(count)
        for index in 0..<count {
            let start = ThreadStart(
                index: index,
                pinCPU: pinning ? Int32(index % max(cpuCount, 1)) : nil,
                body: body,
                pinFailures: pinFailures
            )
            let context = Unmanaged.passRetained(start).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(
                &thread,
                nil,
                { raw in
                    let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
                    if let cpu = start.pinCPU, lks_pin_current_thread(cpu) != 0 { start.pinFailures.add() }
                    start.body(start.index)
                    return nil
                },
                context
            )
            if rc != 0 {
                Unmanaged<ThreadStart>.fromOpaque(context).release()
                // The started threads must still finish: the coordinator releases them, then join.
                coordinator(threads.count)
                for t in threads { pthread_join(t, nil) }
                throw StartError(code: rc)
            }
            threads.append(thread)
        }
        coordinator(threads.count)
        for t in threads { pthread_join(t, nil) }
        return pinFailures.count
    }
}

/// What a new thread needs; handed over through `pthread_create`'s context pointer.
final class ThreadStart: Sendable {
    let index: Int
    let pinCPU: Int32?
    let body: @Sendable (Int) -> Void
    let pinFailures: PinFailures

    init(index: Int, pinCPU: Int32?, body: @escaping @Sendable (Int) -> Void, pinFailures: PinFailures) {
        self.index = index
        self.pinCPU = pinCPU
        self.body = body
        self.pinFailures = pinFailures
    }
}

final class PinFailures: Sendable {
    let value = Atomic<Int>(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
