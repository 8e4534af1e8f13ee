/// A growable byte buffer that a trace's event packets are encoded straight into, each packet's
/// lengths computed before it is written: no array per packet or message, no moving a message
/// when its length needs a second byte, no uniqueness check per byte.
///
/// `--perfetto` writes one packet per slice begin, end, instant and counter sample — tens of
/// millions in a default run — so this is the per-event cost of a trace. The bytes
/// are exactly what `ProtobufWriter` writes for the same fields (minimal varint lengths);
/// `PerfettoEncodingEquivalenceTests` holds the two to it. Owned by one encoder, never shared —
/// which is why its properties go without the runtime's exclusivity checks (a class's stored
/// properties are otherwise checked on every access, several times a packet).
final class PacketBuffer {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always) func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var size = capacity
        while size < needed { size *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = size
    }

    func append(_ other: [UInt8]) {
        reserve(other.count)
        other.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
        count += other.count
    }

    // The writes below assume `reserve` made room.

    @inline(__always) func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    @inline(__always) func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            count += 1
            v >>= 7
        }
        base[count] = UInt8(v)
        count += 1
    }

    @inline(__always) func double(_ value: Double) {
        var bits = value.bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { (base + count).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: 8) }
        count += 8
    }

    @inline(__always) func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    /// Writes through a local cursor: `body` gets a pointer to the end of what is written (room
    /// for `extra` bytes made first) and returns where it stopped. The per-byte writes then touch
    /// a pointer in a register instead of this object's properties (each of which is a load, a
    /// store and, for a class, an exclusivity check); the packets of an event are written so.
    @inline(__always) func write(reserving extra: Int, _ body: (inout Cursor) -> Void) {
        reserve(extra)
        var cursor = Cursor(at: base + count)
        body(&cursor)
        count = cursor.position - base
    }

    /// A write position inside a `PacketBuffer`'s reserved room.
    struct Cursor {
        fileprivate(set) var position: UnsafeMutablePointer<UInt8>

        fileprivate init(at position: UnsafeMutablePointer<UInt8>) { self.position = position }

        @inline(__always) mutating func byte(_ b: UInt8) {
            position.pointee = b
            position += 1
        }

        @inline(__always) mutating func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                position.pointee = UInt8(truncatingIfNeeded: v) | 0x80
                position += 1
                v >>= 7
            }
            position.pointee = UInt8(v)
            position += 1
        }

        @inline(__always) mutating func double(_ value: Double) {
            UnsafeMutableRawPointer(position).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
            position += 8
        }

        @inline(__always) mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let start = bytes.baseAddress, bytes.count > 0 else { return }
            position.update(from: start, count: bytes.count)
            position += bytes.count
        }

        /// `value`'s `digits` decimal digits (`NumberedName.digits(value)`), as text.
        @inline(__always) mutating func decimal(_ value: UInt64, digits: Int) {
            var rest = value
            for k in stride(from: digits - 1, through: 0, by: -1) {
                position[k] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            position += digits
        }
    }

    /// How many bytes `varint` writes for `value`.
    @inline(__always) static func varintSize(_ value: UInt64) -> Int {
        value < 0x80 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }
}
