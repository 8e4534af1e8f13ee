/// Just enough of the protobuf wire format to write a Perfetto trace: varints, 64-bit doubles and
/// length-delimited fields (strings and nested messages).
///
/// Hand-written instead of generated with swift-protobuf: the trace uses a dozen fields of a
/// schema whose generated code is megabytes, and a generator plugin would add minutes to every
/// clean build. Tests decode the output with Perfetto's own `perfetto_trace_pb2`.
///
/// Everything goes into one growing buffer: a nested message is written in place after a
/// one-byte length, which is widened (the message moved) only in the rare case it exceeds 127
/// bytes — a trace has tens of millions of small messages, and an array per message was most of
/// what `--perfetto` cost.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, wireType: 0)
        raw(value)
    }

    mutating func int64(_ field: Int, _ value: Int64) { varint(field, UInt64(bitPattern: value)) }

    mutating func double(_ field: Int, _ value: Double) {
        key(field, wireType: 1)
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    mutating func string(_ field: Int, _ value: String) {
        key(field, wireType: 2)
        var value = value
        value.withUTF8 { utf8 in
            raw(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        key(field, wireType: 2)
        let lengthAt = bytes.count
        bytes.append(0)
        build(&self)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
            return
        }
        var prefix: [UInt8] = []
        var v = UInt64(length)
        while v >= 0x80 {
            prefix.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        prefix.append(UInt8(v))
        bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: prefix)
    }

    mutating func data(_ field: Int, _ value: [UInt8]) {
        key(field, wireType: 2)
        raw(UInt64(value.count))
        bytes += value
    }

    private mutating func key(_ field: Int, wireType: UInt64) { raw(UInt64(field) << 3 | wireType) }

    private mutating func raw(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}
