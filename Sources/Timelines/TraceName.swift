import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An event's or a track's name in a timeline (`frame`, `main`, `worker 3`), interned for the
/// life of the process: 4 bytes, compared and hashed as a number.
///
/// A `TraceEvent` holds two names. Held as strings they made every event something the runtime
/// has to retain when it is copied and release when it is freed: freeing a default bench-cache
/// run's 7.6 M events walked 486 MB only to release their strings, and in a traced bench-group
/// run retains, releases and frees were 39 % of what `--perfetto` added (perf, release build).
/// Held as names, an event is plain bytes (freed without being read) and 40 bytes, not 64.
///
/// A string literal is a name (`.slice("frame", on: "main", …)`): its first use interns it,
/// and later uses find it by the literal's address, without reading its characters or taking a
/// lock. A name made at run time (`TraceName("worker \(k)")`) is looked up by its characters
/// under a lock: make such names once (a lane's name when the lane opens), not per event.
///
/// Texts equal as Swift strings are one name, canonical equivalents too (`é` as one scalar or as
/// `e` and a combining accent): the trace writes the spelling interned first.
public struct TraceName: Sendable, Hashable, CustomStringConvertible {
    /// The name's index in the process's table: equal names, equal ids.
    @usableFromInline let id: UInt32

    @usableFromInline init(id: UInt32) { self.id = id }

    /// The name `string`, interned.
    public init(_ string: String) { self = TraceNameTable.shared.name(of: string) }

    /// The name as text.
    public var string: String { TraceNameTable.shared.string(of: self) }

    /// The name's UTF-8 bytes, valid for the life of the process (the encoder writes them without
    /// a copy of the string, so without a retain and release).
    var utf8: UnsafeBufferPointer<UInt8> { TraceNameTable.shared.utf8(of: self) }

    public var description: String { string }
}

/// A name codes as its text.
extension TraceName: Codable {
    public init(from decoder: Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(string)
    }
}

extension TraceName: ExpressibleByStringLiteral {
    /// Inlined where the literal is: a model records events by the million, and a call and the
    /// table's lazy-global check per name were a tenth of what tracing added to a default
    /// bench-cache run before its names were made once.
    @inlinable public init(stringLiteral literal: StaticString) { self = TraceNameTable.shared.name(of: literal) }
}

/// Every name interned in the process, and the two ways to find one: by characters (a
/// dictionary under a lock) and, for a string literal, by its address (a table of atomics read
/// without a lock). Names are never freed: a run has a few hundred.
///
/// Reading a name's text takes no lock either: the texts live in chunks that never move, and a
/// name is handed out only after its text is in place (under the lock; the literal cache's
/// release store and acquire load order a literal's first use on one thread before another
/// thread's read of its text).
///
/// The lock is a pthread mutex, as in `LockedState` (which sits in Simulation, above this module's
/// reach): ThreadSanitizer sees its every acquire, where `Synchronization.Mutex`'s contended path
/// on Linux runs uninstrumented and two of its critical sections look like a race.
@usableFromInline final class TraceNameTable: @unchecked Sendable {
    // @unchecked: `ids` and `count` are read and written only with `mutex` held; the chunks and the
    // literal cache as said above.
    @usableFromInline static let shared = TraceNameTable()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var ids: [String: UInt32] = [:]
    private var count: UInt32 = 0
    /// A name's text, and its UTF-8 bytes in memory of its own (never freed).
    private struct Entry {
        var string: String
        var utf8: UnsafeBufferPointer<UInt8>
    }

    /// `chunkCount` pointers, each nil or a chunk of `chunkSize` entries, filled in order.
    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
    private static let chunkBits = 12
    private static let chunkSize = 1 << chunkBits
    private static let chunkCount = 1 << 16
    /// Literal address → name: `address << 16 | id`, 0 when empty (a slot is overwritten on a
    /// collision, and a name past id 65,535 is not cached; either is found by its characters).
    @usableFromInline let literals: UnsafeMutablePointer<Atomic<UInt64>>
    @inlinable static var literalBits: Int { 12 }

    private init() {
        pthread_mutex_init(mutex, nil)
        chunks = .allocate(capacity: Self.chunkCount)
        chunks.initialize(repeating: nil, count: Self.chunkCount)
        literals = .allocate(capacity: 1 << Self.literalBits)
        for k in 0..<(1 << Self.literalBits) { (literals + k).initialize(to: Atomic(0)) }
    }

    /// The name whose text is `string`, interned if it is new.
    @usableFromInline func name(of string: String) -> TraceName {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let id = ids[string] { return TraceName(id: id) }
        let id = count
        precondition(Int(id) < Self.chunkCount * Self.chunkSize, "more than \(Self.chunkCount * Self.chunkSize) trace names")
        let chunk = Int(id) >> Self.chunkBits
        if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
        let utf8 = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: string.utf8.count)
        _ = utf8.initialize(from: string.utf8)
        let entry = Entry(string: string, utf8: UnsafeBufferPointer(utf8))
        (chunks[chunk].unsafelyUnwrapped + (Int(id) & (Self.chunkSize - 1))).initialize(to: entry)
        ids[string] = id
        count += 1
        return TraceName(id: id)
    }

    /// The name of a string literal: by its address when this literal was seen before.
    @inlinable func name(of literal: StaticString) -> TraceName {
        guard literal.hasPointerRepresentation else { return name(of: literal.description) }
        let address = UInt64(UInt(bitPattern: literal.utf8Start))
        let slot = literals + Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.literalBits))
        let cached = slot.pointee.load(ordering: .acquiring)
        if cached >> 16 == address, cached != 0 { return TraceName(id: UInt32(truncatingIfNeeded: cached & 0xFFFF)) }
        return firstUse(of: literal, at: slot)
    }

    /// A literal not in the cache: found by its characters, then cached (unless its address or
    /// id does not fit a slot).
    @usableFromInline func firstUse(of literal: StaticString, at slot: UnsafeMutablePointer<Atomic<UInt64>>) -> TraceName {
        let address = UInt64(UInt(bitPattern: literal.utf8Start))
        let name = name(of: literal.description)
        if address >> 48 == 0, name.id <= 0xFFFF { slot.pointee.store(address << 16 | UInt64(name.id), ordering: .releasing) }
        return name
    }

    /// `name`'s text.
    @inline(__always) func string(of name: TraceName) -> String { entry(name).pointee.string }

    /// `name`'s UTF-8 bytes.
    @inline(__always) func utf8(of name: TraceName) -> UnsafeBufferPointer<UInt8> { entry(name).pointee.utf8 }

    @inline(__always) private func entry(_ name: TraceName) -> UnsafeMutablePointer<Entry> {
        let id = Int(name.id)
        return chunks[id >> Self.chunkBits].unsafelyUnwrapped + (id & (Self.chunkSize - 1))
    }
}
