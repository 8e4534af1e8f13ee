import Foundation

extension AtomicFile {
    /// An output being written piece by piece (a streamed trace, say): to a temporary file beside
    /// the real destination, renamed into place by `commit`, or straight through to a FIFO, device
    /// or descriptor (`OutputDestination`).
    ///
    /// Not thread-safe: one writer belongs to one thread at a time.
    public final class Writer {
        /// The path as the user gave it: what errors name.
        public let path: String
        public let destination: OutputDestination
        /// The temporary file for a replaced destination; nil for one written through.
        let temporary: String?
        private var fd: Int32
        /// Whether `fd` is the process's own descriptor (stdout), which is never closed.
        private let borrowed: Bool

        /// Opens `path` for writing (creating the temporary file), failing at once if it cannot be.
        public init(path: String) throws(WriteError) {
            self.path = path
            destination = try OutputDestination.resolve(path)
            switch destination {
            case .replace(let real):
                let temporary = AtomicFile.temporaryPath(for: real)
                fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                self.temporary = temporary
                borrowed = false
            case .through(let real):
                // A FIFO blocks here until it has a reader, as `cat > fifo` does.
                fd = open(real, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                temporary = nil
                borrowed = false
            case .descriptor(let number):
                fd = fcntl(number, F_GETFL) >= 0 ? number : -1
                temporary = nil
                borrowed = true
            }
            guard fd >= 0 else { throw WriteError.fromErrno(path) }
        }

        deinit { discard() }

        /// Writes all of `data`, or throws: a short write is retried, a failed one (ENOSPC, EPIPE,
        /// EIO) is an error naming the path.
        public func write(_ data: Data) throws(WriteError) {
            guard fd >= 0 else { throw WriteError(path: path, reason: "already closed") }
            var failure: Int32 = 0
            data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if n == 0 {
                        failure = EIO
                        return
                    }
                    offset += n
                }
            }
            if failure != 0 {
                let error = WriteError(path: path, reason: String(cString: strerror(failure)))
                discard()
                throw error
            }
        }

        /// Finishes the output: flushes (when `durable` and a file) and renames the temporary file
        /// over the destination, or closes the path written through.
        public func commit(durable: Bool = true) throws(WriteError) {
            if let staged = try close(durable: durable) { try staged.commit() }
        }

        /// Flushes and closes the temporary file without putting it in place (see `AtomicFile.stage`).
        func stage(durable: Bool) throws(WriteError) -> Staged {
            guard let staged = try close(durable: durable) else { preconditionFailure("stage: \(path) is written through") }
            return staged
        }

        /// Closes the output (flushed first when `durable` and a file); returns the temporary file
        /// still to rename, or nil for a path written through (then complete).
        private func close(durable: Bool) throws(WriteError) -> Staged? {
            guard fd >= 0 else { throw WriteError(path: path, reason: "already closed") }
            if temporary != nil, durable, fsync(fd) != 0 {
                let error = WriteError.fromErrno(path)
                discard()
                throw error
            }
            let descriptor = fd
            fd = -1
            if !borrowed, Foundation.close(descriptor) != 0 {
                let error = WriteError.fromErrno(path)
                if let temporary { unlink(temporary) }
                throw error
            }
            guard let temporary, case .replace(let real) = destination else { return nil }
            return Staged(temporary: temporary, destination: real)
        }

        /// Abandons the output: closes it and removes the temporary file (a path written through
        /// keeps what was written).
        public func discard() {
            guard fd >= 0 else { return }
            if !borrowed { Foundation.close(fd) }
            fd = -1
            if let temporary { unlink(temporary) }
        }
    }
}
