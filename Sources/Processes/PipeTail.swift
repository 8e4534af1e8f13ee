import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The read end of a child's stderr pipe, drained on its own thread as the child writes, keeping
/// only the last `limit` bytes.
///
/// A pipe holds 64 KiB on Linux. A harness that reads a child's stderr only after the child ended
/// blocks a child that writes more in the meantime: the child waits in `write`, the harness waits
/// for the child, and the watchdog then calls a chatty child deadlocked. Drained as it is written,
/// the child never blocks, and the tail is what an error message quotes.
package final class PipeTail: @unchecked Sendable {
    // @unchecked: `tail` and `written` are only touched while `lock` is held (NSLock is a pthread
    // mutex, which ThreadSanitizer sees); `done` is a semaphore.
    private let lock = NSLock()
    private var tail: [UInt8] = []
    private var written = 0
    private let done = DispatchSemaphore(value: 0)
    private let limit: Int

    /// Starts draining `handle` (the read end; the caller has closed its own write end, so the end
    /// of output is seen when every writer has exited).
    package init(_ handle: FileHandle, limit: Int = 64 * 1024) {
        self.limit = limit
        let fd = handle.fileDescriptor
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                lock.withLock {
                    written += n
                    tail.append(contentsOf: chunk[..<n])
                    if tail.count > limit { tail.removeFirst(tail.count - limit) }
                }
            }
            done.signal()
            withExtendedLifetime(handle) {}
        }
        thread.name = "PipeTail"
        thread.start()
    }

    /// How many bytes the child wrote in all.
    package var total: Int { lock.withLock { written } }

    /// The last `limit` bytes as text, once the output ended or `wait` passed (a grandchild that
    /// kept the pipe open must not hang the harness): whatever was read by then.
    package func text(waitingAtMost wait: Double = 2) -> String {
        _ = done.wait(timeout: .now() + wait)
        return lock.withLock { String(decoding: tail, as: UTF8.self) }
    }
}
