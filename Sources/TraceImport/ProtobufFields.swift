/// The protobuf wire format, read field by field from a packet's bytes: enough of it for
/// Perfetto's `TracePacket` (varints, 64-bit, length-delimited and 32-bit fields).
struct ProtobufFields {
    enum Value {
        case varint(UInt64)
        case bytes(Range<Int>)
        case fixed
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var i: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        i = range.lowerBound
        end = range.upperBound
    }

    struct Malformed: Error { var offset: Int }

    mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < end, shift < 64 else { throw Malformed(offset: i) }
            let b = bytes[i]
            i += 1
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    /// The next field's number and value; nil at the end of the message.
    mutating func next() throws(Malformed) -> (field: Int, value: Value)? {
        guard i < end else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1:
            guard end - i >= 8 else { throw Malformed(offset: i) }
            i += 8
            return (field, .fixed)
        case 2:
            let n = try varint()
            guard n <= UInt64(end - i) else { throw Malformed(offset: i) }
            let r = i..<(i + Int(n))
            i += Int(n)
            return (field, .bytes(r))
        case 5:
            guard end - i >= 4 else { throw Malformed(offset: i) }
            i += 4
            return (field, .fixed)
        default: throw Malformed(offset: i)
        }
    }

    func string(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
}
