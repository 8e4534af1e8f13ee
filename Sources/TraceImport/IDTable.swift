/// The values of an xctrace export by id: an open-addressing table keyed by the id itself.
///
/// Most cells of a real export are `ref`s, so a row looks up about eight ids: with the standard
/// `Dictionary`, hashing each `Int` (SipHash, seeded per process) was a tenth of the reader's
/// time. Ids are whole numbers an exporter hands out in sequence, so a multiplicative hash
/// spreads them well and an adversarial file can only slow the table down, never break it.
/// Entries are never removed (an id keeps its value to the end of the file, as in the export).
struct IDTable<Value: AnyObject> {
    private var ids: [Int]
    private var values: [Value?]
    private var shift: Int
    private(set) var count = 0
    private static var empty: Int { -1 }

    init() {
        let capacity = 1024
        ids = Array(repeating: Self.empty, count: capacity)
        values = Array(repeating: nil, count: capacity)
        shift = Int.bitWidth - capacity.trailingZeroBitCount
    }

    @inline(__always) private func slot(_ id: Int) -> Int {
        Int(bitPattern: (UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }

    /// The value defined with `id`; nil for an id never defined. Ids are ≥ 0 (the scanner
    /// reads them as whole numbers).
    subscript(id: Int) -> Value? {
        get {
            let mask = ids.count - 1
            var k = slot(id)
            while true {
                let found = ids[k]
                if found == id { return values[k] }
                if found == Self.empty { return nil }
                k = (k + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 2 > ids.count { grow() }
            insert(id, newValue)
        }
    }

    private mutating func insert(_ id: Int, _ value: Value) {
        let mask = ids.count - 1
        var k = slot(id)
        while ids[k] != Self.empty, ids[k] != id { k = (k + 1) & mask }
        if ids[k] == Self.empty { count += 1 }
        ids[k] = id
        values[k] = value
    }

    private mutating func grow() {
        let (oldIDs, oldValues) = (ids, values)
        ids = Array(repeating: Self.empty, count: oldIDs.count * 2)
        values = Array(repeating: nil, count: oldIDs.count * 2)
        shift -= 1
        count = 0
        for (id, value) in zip(oldIDs, oldValues) where id != Self.empty { insert(id, value!) }
    }
}
