/// The app's state as bytes on storage: a body, then a trailer (magic, version, checksum over
/// everything before it) — so that a relaunch tells a whole state from a torn one.
///
/// The body is the same for every version (its hash is computed once), so a save costs its
/// writes, not its encoding: the app spends its time inside saves, where the kills should land.
enum StateImage {
    static let magic: [UInt8] = Array("PBLC".utf8)
    /// The state's size: large enough that writing it takes many write(2) calls.
    static let bodySize = 256 * 1024
    static let trailerSize = 4 + 8 + 8

    static let body = [UInt8](repeating: 0x5A, count: bodySize)
    static let bodyHash: UInt64 = fnv(body[...], from: fnvBasis)

    static func trailer(version: Int64) -> [UInt8] {
        var bytes = magic
        append(&bytes, UInt64(bitPattern: version))
        append(&bytes, fnv(bytes[...], from: bodyHash))
        return bytes
    }

    static func encode(version: Int64) -> [UInt8] { body + trailer(version: version) }

    enum Decoded: Equatable {
        case none
        case corrupt
        case version(Int64)
    }

    /// Reads back a state; anything that is not one whole image is corrupt.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        guard bytes.count == bodySize + trailerSize else { return .corrupt }
        let t = bodySize
        guard Array(bytes[t..<(t + magic.count)]) == magic else { return .corrupt }
        let hash = fnv(bytes[t..<(t + magic.count + 8)], from: fnv(bytes[0..<t], from: fnvBasis))
        guard hash == read(bytes, at: t + magic.count + 8) else { return .corrupt }
        return .version(Int64(bitPattern: read(bytes, at: t + magic.count)))
    }

    static let fnvBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a, 64 bits, continuing from `h`.
    static func fnv(_ bytes: ArraySlice<UInt8>, from h: UInt64) -> UInt64 {
        var h = h
        bytes.withUnsafeBufferPointer { buffer in
            for b in buffer {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01B3
            }
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
