import Foundation

/// Writes files so that a reader never sees a partial one.
///
/// The bytes go to a temporary name in the same folder, are flushed, and are renamed over the
/// destination: rename is atomic on one file system, so an interrupted run leaves either the old
/// file or the new one, never half of the new one.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// A file written in full under a temporary name, not yet in place.
    public struct Staged: Sendable {
        public let temporary: String
        public let destination: String

        /// A file some other writer (a compiler, say) produced in full at `temporary`.
        public init(temporary: String, destination: String) {
            self.temporary = temporary
            self.destination = destination
        }

        /// Renames the staged file over its destination (atomic on one file system).
        public func commit() throws(WriteError) {
            guard rename(temporary, destination) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw WriteError(path: destination, reason: reason)
            }
        }

        /// Removes the staged file (when a sibling in the same unit failed).
        public func discard() { unlink(temporary) }
    }

    /// The temporary name `write` and `stage` use for `path`: hidden, in the same folder, per process.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    }

    /// Writes `data` to `path` through a temporary file renamed over it: a reader sees the old
    /// file or the new one, never a part.
    ///
    /// - Parameters:
    ///   - data: the file's whole content.
    ///   - path: the file to create or replace.
    ///   - durable: flush to the disk before the rename (the default). A file that only
    ///     another live process reads a moment later (libfaketime's timestamp file) skips the flush:
    ///     it must be whole when read, not survive a power cut.
    public static func write(_ data: Data, to path: String, durable: Bool = true) throws(WriteError) {
        try stage(data, to: path, durable: durable).commit()
    }

    /// Writes `data` in full and flushed under a temporary name beside `path`; `commit()` puts it
    /// in place. Several staged files committed one after another form a unit whose only window
    /// of inconsistency is between the renames (see `ResultsFolder.write`).
    public static func stage(_ data: Data, to path: String, durable: Bool = true) throws(WriteError) -> Staged {
        let temporary = temporaryPath(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        var ok = true
        var reason = ""
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    ok = false
                    reason = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        if ok, durable, fsync(fd) != 0 {
            ok = false
            reason = String(cString: strerror(errno))
        }
        close(fd)
        guard ok else {
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
        return Staged(temporary: temporary, destination: path)
    }

    public static func write(_ text: String, to path: String, durable: Bool = true) throws(WriteError) {
        try write(Data(text.utf8), to: path, durable: durable)
    }
}
