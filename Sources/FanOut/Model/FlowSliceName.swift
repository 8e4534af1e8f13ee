/// A traced slice's name that holds a flow's number (`tap flow 12`, `movies hedge flow 12
/// succeeded`), written straight into the string's storage.
///
/// A traced default run names about 380,000 slices so; built by interpolation, each name went
/// through several appends and reallocations, about a tenth of what tracing added to the run. The
/// characters are the same as the interpolation's.
enum FlowSliceName {
    /// `head` + `middle`, the decimal digits of `flow`, then `tail` + `end`.
    static func make(_ head: String, _ middle: String = "", flow: Int, _ tail: String = "", _ end: String = "") -> String {
        guard flow >= 0 else { return "\(head)\(middle)\(flow)\(tail)\(end)" }
        var digits = 1
        var rest = flow
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let count = head.utf8.count + middle.utf8.count + digits + tail.utf8.count + end.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            // A cursor handed from part to part, not a captured counter (whose every access a
            // nested function checks for exclusivity at run time).
            var at = buffer.baseAddress.unsafelyUnwrapped
            at = copy(head, to: at)
            at = copy(middle, to: at)
            var number = flow
            for k in stride(from: digits - 1, through: 0, by: -1) {
                at[k] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
            at += digits
            at = copy(tail, to: at)
            at = copy(end, to: at)
            return at - buffer.baseAddress.unsafelyUnwrapped
        }
    }

    /// Copies `part`'s UTF-8 to `at`; returns the end of what it wrote.
    @inline(__always) private static func copy(_ part: String, to at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        func write(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return at }
            at.update(from: base, count: bytes.count)
            return at + bytes.count
        }
        // Native strings (literals, raw values) are contiguous; any other is copied out first.
        return part.utf8.withContiguousStorageIfAvailable(write) ?? Array(part.utf8).withUnsafeBufferPointer(write)
    }
}
