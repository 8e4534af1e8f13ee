/// The app's state as bytes on storage: a header (magic, version, length), a body derived from the
/// version, and a checksum over both — so that a relaunch tells a whole state from a torn one.
enum StateImage {
    static let magic: [UInt8] = Array("PBLC".utf8)
    /// The state's size: large enough that writing it takes many write(2) calls.
    static let bodySize = 512 * 1024

    static func encode(version: Int64) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(magic.count + 16 + bodySize + 8)
        append(&bytes, UInt64(bitPattern: version))
        append(&bytes, UInt64(bodySize))
        let seed = UInt8(truncatingIfNeeded: version)
        for i in 0..<bodySize { bytes.append(seed &+ UInt8(truncatingIfNeeded: i &* 31)) }
        append(&bytes, checksum(bytes[...]))
        return bytes
    }

    enum Decoded: Equatable {
        case none
        case corrupt
        case version(Int64)
    }

    /// Reads back a state; anything that is not one whole image is corrupt.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .corrupt }
        let headerSize = magic.count + 16
        guard bytes.count == headerSize + bodySize + 8, Array(bytes[0..<magic.count]) == magic else { return .corrupt }
        let stored = read(bytes, at: bytes.count - 8)
        guard checksum(bytes[0..<(bytes.count - 8)]) == stored else { return .corrupt }
        return .version(Int64(bitPattern: read(bytes, at: magic.count)))
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    private static func append(_ bytes: inout [UInt8], _ v: UInt64) {
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return v
    }
}
