/// Sorts a run's read latencies (integer nanoseconds) for the percentiles: a least-significant-digit
/// radix sort of each value's offset from the smallest, 11 bits a pass.
///
/// Integers have one sorted order, so the array is exactly the one `sort()` gives, and so is every
/// percentile read from it. The latencies of a run span well under 2^22 ns (a store read is
/// 50 µs + an exponential tail), i.e. two passes of two linear sweeps each, where the standard
/// library's comparison sort took 14 % of bench-cache's default run (docs/simulator-speed.md). A
/// short array, or one spanning more than 2^33 ns, takes `sort()`.
enum LatencySort {
    static let digitBits = 11
    static let maximumPasses = 3
    static let minimumCount = 256

    static func sort(_ values: inout [Int64]) {
        let n = values.count
        guard n >= minimumCount else { return values.sort() }
        var lo = values[0], hi = values[0]
        for v in values {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        let (span, overflow) = hi.subtractingReportingOverflow(lo)
        guard !overflow else { return values.sort() }
        guard span > 0 else { return }  // all equal: already sorted
        let bits = Int64.bitWidth - span.leadingZeroBitCount
        let passes = (bits + digitBits - 1) / digitBits
        guard passes <= maximumPasses else { return values.sort() }
        let mask = UInt64(1 << digitBits - 1)
        var scratch = [Int64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << digitBits)
        values.withUnsafeMutableBufferPointer { a in
            scratch.withUnsafeMutableBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    var source = a, target = b
                    for pass in 0..<passes {
                        let shift = UInt64(pass * digitBits)
                        c.update(repeating: 0)
                        for v in source { c[Int((UInt64(bitPattern: v &- lo) &>> shift) & mask)] &+= 1 }
                        var total = 0
                        for d in 0..<c.count {
                            let k = c[d]
                            c[d] = total
                            total &+= k
                        }
                        for v in source {
                            let d = Int((UInt64(bitPattern: v &- lo) &>> shift) & mask)
                            target[c[d]] = v
                            c[d] &+= 1
                        }
                        swap(&source, &target)
                    }
                    // After an odd number of passes the sorted values are in the scratch buffer.
                    if source.baseAddress != a.baseAddress {
                        a.baseAddress!.update(from: source.baseAddress!, count: n)
                    }
                }
            }
        }
    }
}
