/// The trace format, one line at a time: header, then `time_ms,rows` sorted by time.
///
/// Works on the bytes of a line (no `String` per line), so that replaying a 20-million-line file
/// costs little more than generating the same trace; every check runs on every pass.
struct TraceLineParser {
    let path: String
    let limits: TraceLimits
    var sawHeader = false
    var commits = 0
    var previous = SimInstant(nanoseconds: -1)

    /// Times up to this many nanoseconds are within the span limit, so the fast path skips that
    /// check: the limit rounded down to whole milliseconds, at most 10^9 ms.
    let spanBoundNs: Int64

    init(path: String, limits: TraceLimits) {
        self.path = path
        self.limits = limits
        spanBoundNs = Int64(min(max(limits.maximumSpanMs.rounded(.down), 0), 1e9)) * 1_000_000
    }

    static let scale: [Int64] = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1]

    /// `digits[.digits]` with at most 9 whole and 6 decimal digits, as integer nanoseconds; nil
    /// for anything else, which the general path decides. The same value the general path gives
    /// (a correctly rounded `Double` of milliseconds, times 10^6, rounded): below 2^50 ns that
    /// product is within a quarter nanosecond of the exact integer, so it rounds to it. It skips
    /// a division and a rounding per line (number parsing was a fifth of a replay).
    @inline(__always) static func plainNanoseconds(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let n = b.count
        var v: Int64 = 0
        while i < n, b[i] &- 0x30 < 10 {
            v = v &* 10 &+ Int64(b[i] &- 0x30)
            i += 1
        }
        guard i > 0, i <= 9 else { return nil }
        var fraction = 0
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, b[i] &- 0x30 < 10, fraction < 6 {
                v = v &* 10 &+ Int64(b[i] &- 0x30)
                i += 1
                fraction += 1
            }
            guard fraction > 0 else { return nil }
        }
        guard i == n else { return nil }
        return v &* scale[fraction]
    }

    /// A plain line at the start of `b`, `digits[.digits],digits` and its "\n" or "\r\n", with
    /// the time within the span bound, in order and within the commit limit: the commit and the
    /// bytes it took, line break included. Nil for anything else (nothing is consumed), which
    /// the general path then decides; a line accepted here is one it accepts with the same value
    /// (the time as `plainNanoseconds` reads it, the rows as `StrictNumber.whole`).
    @inline(__always) mutating func plainLine(_ b: UnsafeBufferPointer<UInt8>) -> (Commit, Int)? {
        let n = b.count
        var i = 0
        var v: Int64 = 0
        while i < n, b[i] &- 0x30 < 10 {
            v = v &* 10 &+ Int64(b[i] &- 0x30)
            i += 1
        }
        guard i > 0, i <= 9, i < n else { return nil }
        var fraction = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, b[i] &- 0x30 < 10, fraction < 6 {
                v = v &* 10 &+ Int64(b[i] &- 0x30)
                i += 1
                fraction += 1
            }
            guard fraction > 0, i < n else { return nil }
        }
        guard b[i] == Self.comma else { return nil }
        i += 1
        let rowsStart = i
        var rows: Int32 = 0
        while i < n, b[i] &- 0x30 < 10, i - rowsStart < 9 {
            rows = rows &* 10 &+ Int32(b[i] &- 0x30)
            i += 1
        }
        guard i > rowsStart, i < n, rows > 0 else { return nil }
        if b[i] == 0x0D {
            i += 1
            guard i < n else { return nil }
        }
        guard b[i] == 0x0A else { return nil }
        let ns = v &* Self.scale[fraction]
        guard ns <= spanBoundNs, ns >= previous.nanoseconds, commits < limits.maximumCommits else { return nil }
        commits += 1
        previous = SimInstant(nanoseconds: ns)
        return (Commit(time: previous, rows: rows), i + 1)
    }

    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ",")

    static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lo = 0, hi = b.count
        while lo < hi, b[lo] == space || b[lo] == tab { lo += 1 }
        while hi > lo, b[hi - 1] == space || b[hi - 1] == tab { hi -= 1 }
        return UnsafeBufferPointer(rebasing: b[lo..<hi])
    }

    /// The commit on this line; nil for the header or a blank line.
    mutating func parse(_ raw: UnsafeBufferPointer<UInt8>, number: Int) throws(InputFileError) -> Commit? {
        let line = Self.trimmed(raw)
        if line.isEmpty { return nil }
        if !sawHeader {
            try InputFile.checkHeader(line, is: TraceReader.header, path: path, line: number)
            sawHeader = true
            return nil
        }
        guard let comma = line.firstIndex(of: Self.comma) else {
            throw InputFileError(path: path, line: number, message: "expected 2 fields (time_ms,rows), found 1")
        }
        let timeText = Self.trimmed(UnsafeBufferPointer(rebasing: line[..<comma]))
        let rowsText = Self.trimmed(UnsafeBufferPointer(rebasing: line[(comma + 1)...]))
        if rowsText.contains(Self.comma) {
            let fields = line.reduce(1) { $0 + ($1 == Self.comma ? 1 : 0) }
            throw InputFileError(path: path, line: number, message: "expected 2 fields (time_ms,rows), found \(fields)")
        }
        let time = try self.time(timeText, number: number)
        let rows = try self.rows(rowsText, number: number)
        guard time >= previous else {
            throw InputFileError(
                path: path,
                line: number,
                field: "time_ms",
                message: "\(InputFile.quote(timeText)) is earlier than the line before: the trace must be sorted by time"
            )
        }
        commits += 1
        guard commits <= limits.maximumCommits else {
            throw InputFileError(
                path: path,
                line: number,
                message: "more than \(limits.maximumCommits) commits, the limit; \(TraceLimits.commitsHint)"
            )
        }
        previous = time
        return Commit(time: time, rows: rows)
    }

    func time(_ text: UnsafeBufferPointer<UInt8>, number: Int) throws(InputFileError) -> SimInstant {
        if let ns = Self.plainNanoseconds(text), ns <= spanBoundNs { return SimInstant(nanoseconds: ns) }
        func invalid(_ message: String) -> InputFileError {
            InputFileError(path: path, line: number, field: "time_ms", message: message)
        }
        guard let ms = StrictNumber.decimal(text) else {
            let shown = InputFile.quote(text)
            if StrictNumber.isNonFiniteWord(shown) { throw invalid("must be a finite number ≥ 0, got \(shown)") }
            throw invalid("'\(shown)' is not a number")
        }
        guard ms >= 0 else { throw invalid("must be a finite number ≥ 0, got \(InputFile.quote(text))") }
        guard ms <= TraceLimits.hardMaximumTimeMs else {
            throw invalid("\(InputFile.quote(text)) is beyond the supported range (1e12 ms)")
        }
        guard ms <= limits.maximumSpanMs else {
            throw invalid(
                "\(InputFile.quote(text, limit: 24)) ms is past the span limit, \(TraceLimits.format(limits.maximumSpanMs)) ms (hours of simulation per policy); \(TraceLimits.spanHint)"
            )
        }
        return SimInstant.zero + .milliseconds(ms)
    }

    func rows(_ text: UnsafeBufferPointer<UInt8>, number: Int) throws(InputFileError) -> Int32 {
        guard let rows = StrictNumber.whole(text), let small = Int32(exactly: rows) else {
            throw InputFileError(path: path, line: number, field: "rows", message: "'\(InputFile.quote(text))' is not a whole number")
        }
        guard small > 0 else {
            throw InputFileError(path: path, line: number, field: "rows", message: "must be ≥ 1, got \(small)")
        }
        return small
    }

    /// The checks only the end of the file can make.
    func finish() throws(InputFileError) {
        guard sawHeader else {
            throw InputFileError(path: path, message: "is empty; expected header '\(TraceReader.header)' and at least one commit")
        }
        guard commits > 0 else {
            throw InputFileError(path: path, message: "has a header but no commits")
        }
    }
}
