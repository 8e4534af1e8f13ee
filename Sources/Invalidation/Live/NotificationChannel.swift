import Measurement

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A coalescing cross-process notification on Linux, where there is no `notify_post`: one FIFO
/// per (listener, name) in the run's folder.
///
/// Posting writes one byte without blocking; the listener, woken by `poll`, drains the FIFO in
/// full and runs its handler once — so posts that arrive before the handler runs coalesce into
/// one run, as Darwin may coalesce rapid posts. The byte is the poster's role tag, read for
/// accounting only (Darwin notifications carry no payload; no policy looks at it). The listener
/// opens its FIFO read-write, so a poster never finds it without a reader once the run started.
struct NotificationListener {
    let name: String
    let fd: Int32

    init(path: String, name: String) throws {
        self.name = name
        fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw BenchFailure.runtime("cannot open notification FIFO \(path): \(String(cString: strerror(errno)))") }
    }

    /// Reads everything pending: the tags of the posts delivered in this handler run.
    func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n > 0 {
                out += buffer[0..<n]
                continue
            }
            if n < 0, errno == EINTR { continue }
            return out
        }
    }

    func close() { _ = Glibc.close(fd) }
}

/// The posting side: the FIFOs of every listener of one name.
struct NotificationPoster {
    private let paths: [String]
    private var fds: [Int32]
    /// Posts that found a FIFO full or without a reader (reported, never expected).
    private(set) var failed = 0

    init(paths: [String]) {
        self.paths = paths
        fds = Array(repeating: -1, count: paths.count)
    }

    /// Opened at the first post, after the common start, when the listener has its end open.
    mutating func post(tag: UInt8) {
        for i in fds.indices {
            if fds[i] < 0 { fds[i] = Glibc.open(paths[i], O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
            var byte = tag
            if fds[i] < 0 || write(fds[i], &byte, 1) != 1 { failed += 1 }
        }
    }

    func close() { for fd in fds where fd >= 0 { _ = Glibc.close(fd) } }

    static func fifoPath(directory: String, listener: ProcessRole, name: String) -> String {
        "\(directory)/\(listener.rawValue).\(name).fifo"
    }
}

/// The legacy design's shared notification state (`notify_set_state`/`notify_get_state`): eight
/// bytes in a file every process can read and overwrite, racily by design.
struct SharedNotificationState {
    let fd: Int32

    init(path: String) throws {
        fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchFailure.runtime("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    func set(_ value: UInt64) {
        var v = value
        _ = pwrite(fd, &v, 8, 0)
    }

    func get() -> UInt64 {
        var v: UInt64 = 0
        return pread(fd, &v, 8, 0) == 8 ? v : 0
    }

    func close() { _ = Glibc.close(fd) }
}
