import CZlib
import Foundation

/// Reads a text input file one line at a time in fixed memory, plain or gzip-compressed.
///
/// Input files are streamed, never read whole: a 20-million-line trace costs a 256 KiB buffer,
/// and garbage is rejected at its first bad line without reading further. A line longer than
/// `maximumLineBytes` (a binary file, or text with no newlines) is an error as soon as the buffer
/// has seen that many bytes of it. zlib's `gzread` reads a plain file transparently, so one path
/// serves both, and a gzip file is recognised by its magic bytes, not by its name.
package final class LineStream {
    /// The longest line accepted, in bytes: far above any CSV line a reader here expects.
    package static let maximumLineBytes = 4096
    static let bufferBytes = 256 * 1024

    package let path: String
    private let file: gzFile
    private let buffer: UnsafeMutablePointer<UInt8>
    // Unchecked: a stream belongs to one reader, and the runtime's exclusivity check on these
    // cost about 2 % of a trace replay (two checks per line).
    @exclusivity(unchecked) private var start = 0, end = 0
    private var atEnd = false
    /// The number of the line `next()` returned last, from 1.
    @exclusivity(unchecked) package private(set) var lineNumber = 0
    /// Bytes of text read so far (after decompression).
    package private(set) var byteCount: UInt64 = 0
    /// FNV-1a (64-bit) of the lines returned so far with their line breaks (after decompression),
    /// when asked for: the whole text once `next()` has returned nil.
    @exclusivity(unchecked) package private(set) var checksum: UInt64 = LineStream.fnvOffset
    private let computesChecksum: Bool
    /// Whether the file is gzip-compressed (known after the first read).
    package private(set) var isCompressed = false

    static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// Opens `path`, or throws the one-line reason it cannot be read (missing, a directory, no permission).
    package init(path: String, checksum: Bool = false) throws(InputFileError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError(path: path, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw InputFileError(path: path, message: "is a directory, expected a CSV file")
        }
        guard let file = gzopen(path, "rb") else {
            throw InputFileError(path: path, message: "cannot be read (\(String(cString: strerror(errno))))")
        }
        gzbuffer(file, UInt32(Self.bufferBytes))
        self.file = file
        self.buffer = .allocate(capacity: Self.bufferBytes)
        self.computesChecksum = checksum
    }

    deinit {
        gzclose(file)
        buffer.deallocate()
    }

    /// The next line without its "\n" or "\r\n", valid until the next call; nil at the end of the
    /// file. Throws when the line is too long or the compressed stream is corrupt.
    package func next() throws(InputFileError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            let pending = end - start
            if pending > 0, let newline = memchr(buffer + start, 0x0A, pending) {
                let stop = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                return try line(from: start, to: stop, resumeAt: stop + 1)
            }
            if atEnd {
                return pending == 0 ? nil : try line(from: start, to: end, resumeAt: end)
            }
            if pending > Self.maximumLineBytes { throw tooLong() }
            if start > 0 {
                if pending > 0 { memmove(buffer, buffer + start, pending) }
                start = 0
                end = pending
            }
            try refill()
        }
    }

    private func line(from a: Int, to b: Int, resumeAt next: Int) throws(InputFileError) -> UnsafeBufferPointer<UInt8> {
        var count = b - a
        if count > Self.maximumLineBytes { throw tooLong() }
        lineNumber += 1
        if count > 0, buffer[a + count - 1] == 0x0D { count -= 1 }
        consume(next - a)
        return UnsafeBufferPointer(start: buffer + a, count: count)
    }

    /// Moves past `count` bytes of a line just returned, adding them to the checksum. Hashing
    /// here, line by line, rather than a whole chunk at a time in `refill`: the hash is a chain
    /// of dependent multiplications, which the processor overlaps with the parsing of the
    /// neighbouring lines instead of running it alone.
    @inline(__always) private func consume(_ count: Int) {
        if computesChecksum {
            var h = checksum
            for i in start..<(start + count) { h = (h ^ UInt64(buffer[i])) &* Self.fnvPrime }
            checksum = h
        }
        start += count
    }

    /// The next commit of a `time_ms,rows` trace. A plain line (`123.456,7`, see
    /// `TraceLineParser.plainLine`) is parsed where it lies in the buffer, in one pass that also
    /// finds its end; anything else (the header, blanks, spaces, errors, a line cut by the end of
    /// the buffer) takes `next()` and the parser's general path, which decides it as before.
    /// Searching for each line's end and then parsing it again was a third of a replay.
    func nextCommit(_ parser: inout TraceLineParser) throws(InputFileError) -> Commit? {
        while true {
            if parser.sawHeader, start < end,
                let (commit, used) = parser.plainLine(UnsafeBufferPointer(start: buffer + start, count: end - start))
            {
                lineNumber += 1
                consume(used)
                return commit
            }
            guard let line = try next() else { return nil }
            if let commit = try parser.parse(line, number: lineNumber) { return commit }
        }
    }

    private func tooLong() -> InputFileError {
        InputFileError(
            path: path,
            line: lineNumber + 1,
            message: "line is longer than \(Self.maximumLineBytes) bytes: not a CSV file of this kind (binary data, or no line breaks?)"
        )
    }

    private func refill() throws(InputFileError) {
        let wanted = Self.bufferBytes - end
        let n = gzread(file, buffer + end, UInt32(wanted))
        if n < 0 {
            var code: Int32 = 0
            let reason = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw InputFileError(path: path, message: "is not a readable gzip file (\(reason))")
        }
        if byteCount == 0, n > 0 { isCompressed = gzdirect(file) == 0 }
        if n == 0 {
            // A truncated gzip stream ends without an error from gzread; gzerror says so.
            var code: Int32 = 0
            let reason = gzerror(file, &code).map { String(cString: $0) } ?? ""
            if code != Z_OK {
                throw InputFileError(path: path, message: "is not a readable gzip file (\(reason.isEmpty ? "error \(code)" : reason))")
            }
            atEnd = true
            return
        }
        byteCount += UInt64(n)
        end += Int(n)
    }
}
