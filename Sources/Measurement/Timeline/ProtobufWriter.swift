/// Just enough of the protobuf wire format to write a Perfetto trace: varints, 64-bit doubles and
/// length-delimited fields (strings and nested messages).
///
/// Hand-written instead of generated with swift-protobuf: the trace uses a dozen fields of a
/// schema whose generated code is megabytes, and a generator plugin would add minutes to every
/// clean build. Tests decode the output with Perfetto's own `perfetto_trace_pb2`.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

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

    mutating func string(_ field: Int, _ value: String) { data(field, Array(value.utf8)) }

    mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        data(field, nested.bytes)
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
