import Foundation

/// An append-only file written through a fixed buffer: what the driver streams a run's records,
/// values and trace packets into as items finish, so that memory holds one buffer, not the run.
///
/// `anonymous` spools are unlinked as soon as they are opened (the kernel frees them when the
/// process exits, even after a crash); `staged` ones follow `OutputDestination`, as every output
/// does: where the destination is a regular file or absent they are written under `AtomicFile`'s
/// temporary name beside the real file (a symlink's target) and put in place by
/// `finish().commit()`, like `AtomicFile.stage`; a FIFO, a device or the process's stdout is
/// written straight through as the bytes come, and is never unlinked or renamed over.
package final class SpoolFile {
    /// What the descriptor is, and so what `finish()` and `deinit` may do with the path.
    private enum Kind {
        /// Unlinked at once: read back, then dropped.
        case anonymous
        /// A temporary file beside the real destination, renamed over it when committed.
        case staged
        /// A FIFO or device opened in place: closed, never unlinked.
        case through
        /// The process's own descriptor (stdout): flushed, never closed.
        case borrowed
    }

    /// The path the bytes go to (the temporary name for a staged file).
    package let path: String
    /// The path errors name (the destination for a staged file).
    let destination: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let kind: Kind
    /// Bytes appended so far.
    package private(set) var size: Int64 = 0

    /// A hidden temporary spool in `folder`, removed from the folder at once.
    package static func anonymous(in folder: String, name: String, capacity: Int = 1 << 20) throws(AtomicFile.WriteError) -> SpoolFile {
        let path = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).spool.tmp")
        let file = try SpoolFile(path: path, destination: path, capacity: capacity, kind: .anonymous)
        unlink(path)
        return file
    }

    /// A file that becomes `destination` when finished and committed.
    /// A staged spool is only appended to (never read back), so one written through can stream.
    package static func staged(to destination: String, capacity: Int = 1 << 20) throws(AtomicFile.WriteError) -> SpoolFile {
        switch try OutputDestination.resolve(destination) {
        case .replace(let real):
            return try SpoolFile(
                path: AtomicFile.temporaryPath(for: real),
                destination: destination,
                real: real,
                capacity: capacity,
                kind: .staged
            )
        case .through(let real):
            return try SpoolFile(path: real, destination: destination, real: real, capacity: capacity, kind: .through)
        case .descriptor(let number):
            return try SpoolFile(descriptor: number, destination: destination, capacity: capacity)
        }
    }

    /// The real file a staged spool replaces (a symlink's target); the path itself otherwise.
    private let real: String

    private init(path: String, destination: String, real: String? = nil, capacity: Int, kind: Kind) throws(AtomicFile.WriteError) {
        self.path = path
        self.destination = destination
        self.real = real ?? path
        self.capacity = capacity
        self.kind = kind
        switch kind {
        case .anonymous, .staged: fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        // A FIFO blocks here until it has a reader, as `cat > fifo` does; nothing is created.
        case .through, .borrowed: fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        }
        guard fd >= 0 else { throw AtomicFile.WriteError(path: destination, reason: String(cString: strerror(errno))) }
        buffer.reserveCapacity(capacity)
    }

    private init(descriptor: Int32, destination: String, capacity: Int) throws(AtomicFile.WriteError) {
        path = destination
        self.destination = destination
        real = destination
        self.capacity = capacity
        kind = .borrowed
        guard fcntl(descriptor, F_GETFL) >= 0 else {
            throw AtomicFile.WriteError(path: destination, reason: String(cString: strerror(errno)))
        }
        fd = descriptor
        buffer.reserveCapacity(capacity)
    }

    deinit {
        guard fd >= 0 else { return }
        switch kind {
        case .anonymous, .through: close(fd)
        case .staged:
            close(fd)
            unlink(path)
        case .borrowed: break
        }
    }

    package func append(_ bytes: some Sequence<UInt8>) throws(AtomicFile.WriteError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    package func append(_ text: String) throws(AtomicFile.WriteError) { try append(text.utf8) }

    /// Appends bytes borrowed for the call; a chunk as large as the buffer goes to the file
    /// straight after what is buffered, without being copied into the buffer first (a trace's
    /// chunks are: --perfetto writes hundreds of MB).
    package func append(bytes: UnsafeRawBufferPointer) throws(AtomicFile.WriteError) {
        guard bytes.count >= capacity else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= capacity { try flush() }
            return
        }
        try flush()
        if let failure = Self.writeAll(fd, bytes) { throw AtomicFile.WriteError(path: destination, reason: failure) }
        size += Int64(bytes.count)
    }

    /// Appends raw values (native byte order): a spool of numbers read back by `readAll(as:)`.
    package func append<T: BitwiseCopyable>(value: T) throws(AtomicFile.WriteError) {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    package func flush() throws(AtomicFile.WriteError) {
        let failure = buffer.withUnsafeBytes { Self.writeAll(fd, $0) }
        if failure == nil { size += Int64(buffer.count) }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw AtomicFile.WriteError(path: destination, reason: failure) }
    }

    /// Writes all of `raw` to `fd` (again after a short write or EINTR); the error, if any.
    private static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += n
        }
        return nil
    }

    /// Reads the whole spool back from its start in chunks of the buffer's size.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: max(capacity, 1 << 16))
        var offset: Int64 = 0
        while offset < size {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFile.WriteError(path: destination, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += Int64(n)
        }
    }

    /// Appends another spool's whole content.
    package func append(contentsOf other: SpoolFile) throws {
        try other.forEachChunk { chunk throws(AtomicFile.WriteError) in try append(chunk) }
    }

    /// Flushes to the disk and closes a staged file; `commit()` on the result puts it in place.
    /// A spool written through has nothing left to put in place: its `Staged` commits nothing.
    package func finish() throws(AtomicFile.WriteError) -> AtomicFile.Staged {
        try flush()
        switch kind {
        case .through, .borrowed:
            if kind == .through { close(fd) }
            fd = -1
            return AtomicFile.Staged(writtenThrough: destination)
        case .anonymous, .staged:
            let ok = fsync(fd) == 0
            let reason = String(cString: strerror(errno))
            close(fd)
            fd = -1
            guard ok else {
                unlink(path)
                throw AtomicFile.WriteError(path: destination, reason: reason)
            }
            return AtomicFile.Staged(temporary: path, destination: real)
        }
    }

    /// Copies the spool to standard output.
    package func copyToStandardOutput() throws {
        try forEachChunk { chunk in FileHandle.standardOutput.write(Data(chunk)) }
    }

    /// Copies the file at `path` to standard output in chunks (a results file that may be larger
    /// than memory).
    package static func copyToStandardOutput(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AtomicFile.WriteError(path: path, reason: "cannot be read back")
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { FileHandle.standardOutput.write(chunk) }
    }
}
