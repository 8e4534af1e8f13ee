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
        var (head, middle, tail, end) = (head, middle, tail, end)
        let count = head.utf8.count + middle.utf8.count + digits + tail.utf8.count + end.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var i = 0
            func put(_ part: inout String) {
                part.withUTF8 { bytes in
                    for byte in bytes {
                        buffer[i] = byte
                        i += 1
                    }
                }
            }
            put(&head)
            put(&middle)
            var number = flow
            for k in stride(from: i + digits - 1, through: i, by: -1) {
                buffer[k] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
            i += digits
            put(&tail)
            put(&end)
            return i
        }
    }
}
