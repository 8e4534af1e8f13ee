import Foundation

/// Writes files so that a reader never sees a partial one, and never replaces what is not a file.
///
/// Where the path is a regular file or absent, the bytes go to a temporary name in the same folder
/// as the real file (symlinks followed, the link kept), are flushed, and are renamed over it: rename
/// is atomic on one file system, so an interrupted run leaves either the old file or the new one,
/// never half of the new one. A FIFO, a device or `/dev/stdout` is written straight through
/// (`OutputDestination`). Every write is checked: a short or failed one is a `WriteError` naming
/// the path, never a silent truncation.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// The error `errno` holds now, for `path`.
        static func fromErrno(_ path: String) -> WriteError { WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// A file written in full under a temporary name, not yet in place (or, for a path written
    /// through, the bytes still to write).
    public struct Staged: Sendable {
        public let temporary: String
        public let destination: String
        /// For a FIFO, device or descriptor: the bytes `commit()` writes through (nothing is staged
        /// on disk, since nothing may be put beside such a path).
        let through: (path: String, data: Data)?
        /// Whether the bytes already went straight through to `destination` (nothing to rename).
        let writtenThrough: Bool

        /// A file some other writer (a compiler, say) produced in full at `temporary`.
        public init(temporary: String, destination: String) {
            self.temporary = temporary
            self.destination = destination
            self.through = nil
            self.writtenThrough = false
        }

        init(through path: String, data: Data) {
            self.temporary = ""
            self.destination = path
            self.through = (path, data)
            self.writtenThrough = false
        }

        /// An output already written through as it streamed (`SpoolFile`): committing does nothing.
        init(writtenThrough path: String) {
            self.temporary = ""
            self.destination = path
            self.through = nil
            self.writtenThrough = true
        }

        /// Renames the staged file over its destination (atomic on one file system), or writes the
        /// bytes through.
        public func commit() throws(WriteError) {
            if writtenThrough { return }
            if let through {
                let writer = try Writer(path: through.path)
                try writer.write(through.data)
                try writer.commit(durable: false)
                return
            }
            guard rename(temporary, destination) == 0 else {
                let error = WriteError.fromErrno(destination)
                unlink(temporary)
                throw error
            }
        }

        /// Removes the staged file (when a sibling in the same unit failed).
        public func discard() { if through == nil, !writtenThrough { unlink(temporary) } }
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
        let writer = try Writer(path: path)
        try writer.write(data)
        try writer.commit(durable: durable)
    }

    /// Writes `data` in full and flushed under a temporary name beside `path`; `commit()` puts it
    /// in place. Several staged files committed one after another form a unit whose only window
    /// of inconsistency is between the renames (see `ResultsFolder.write`). A path written through
    /// is only checked here and written by `commit()`.
    public static func stage(_ data: Data, to path: String, durable: Bool = true) throws(WriteError) -> Staged {
        switch try OutputDestination.resolve(path) {
        case .through, .descriptor: return Staged(through: path, data: data)
        case .replace:
            let writer = try Writer(path: path)
            try writer.write(data)
            return try writer.stage(durable: durable)
        }
    }

    public static func write(_ text: String, to path: String, durable: Bool = true) throws(WriteError) {
        try write(Data(text.utf8), to: path, durable: durable)
    }
}
