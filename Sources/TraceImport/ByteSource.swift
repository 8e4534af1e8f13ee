import Foundation

/// A file read in fixed chunks: what keeps every reader's memory flat in the file's size.
///
/// The readers keep an index into `buffer`; `refill(keeping:)` moves the unread tail to the
/// front and appends the next chunk, so a token that straddles two chunks is seen whole.
struct ByteSource {
    let path: String
    private let handle: UnsafeMutablePointer<FILE>
    var buffer: [UInt8]
    /// Bytes consumed before `buffer[0]`.
    private(set) var offset: UInt64 = 0
    private(set) var atEnd = false
    static let chunk = 1 << 20

    init(path: String) throws(TraceImportError) {
        guard let handle = fopen(path, "rb") else {
            throw TraceImportError(
                path: path,
                message: errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
            )
        }
        self.path = path
        self.handle = handle
        buffer = []
        buffer.reserveCapacity(Self.chunk * 2)
    }

    func close() { fclose(handle) }

    /// Drops `buffer[..<start]` (always: the caller's index is 0 afterwards), then reads the next
    /// chunk after the rest; false at the end of the file.
    mutating func refill(keeping start: Int) throws(TraceImportError) -> Bool {
        offset += UInt64(start)
        buffer.removeSubrange(0..<start)
        if atEnd { return false }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunk))
        let n = buffer.withUnsafeMutableBufferPointer { fread($0.baseAddress! + old, 1, Self.chunk, handle) }
        buffer.removeLast(Self.chunk - n)
        if n == 0 {
            if ferror(handle) != 0 { throw TraceImportError(path: path, message: "read failed (\(String(cString: strerror(errno))))") }
            atEnd = true
            return false
        }
        return true
    }
}
