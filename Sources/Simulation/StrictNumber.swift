/// Number parsing exactly as the input formats document it, and nothing looser.
///
/// `Double(String)` accepts hexadecimal (`0x10` is 16), `nan`, `inf`, and, because it hands the
/// text to C, stops at a NUL byte (`5\0junk` is 5). The readers and flags take plain decimals
/// only: `[+-]digits[.digits][e[+-]digits]`, at least one digit, no spaces inside.
package enum StrictNumber {
    /// Powers of ten that `Double` holds exactly.
    static let exactPowers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { x, _ in x * 10 } }

    /// A plain decimal number, or nil. The value is the correctly rounded one (`Double(String)`'s).
    package static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        var negative = false
        if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0, significant = 0
        while i < n, b[i] &- 0x30 < 10 {
            if significant > 0 || b[i] != 0x30 { significant += 1 }
            if significant <= 18 { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 0x30) }
            digits += 1
            i += 1
        }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, b[i] &- 0x30 < 10 {
                if significant > 0 || b[i] != 0x30 { significant += 1 }
                if significant <= 18 { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 0x30) }
                digits += 1
                fraction += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        var exponent = false
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            exponent = true
            i += 1
            if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let first = i
            while i < n, b[i] &- 0x30 < 10 { i += 1 }
            guard i > first else { return nil }
        }
        guard i == n else { return nil }
        // Fast path, exact: at most 15 significant digits over an exact power of ten is one
        // correctly rounded IEEE division, the same value strtod gives.
        if !exponent, significant <= 15, fraction < exactPowers.count {
            let value = Double(mantissa) / exactPowers[fraction]
            return negative ? -value : value
        }
        return Double(String(decoding: b, as: UTF8.self))
    }

    package static func decimal(_ text: some StringProtocol) -> Double? {
        var s = String(text)
        return s.withUTF8 { decimal($0) }
    }

    /// A whole number written in decimal digits with an optional sign (at most 18 digits), or nil.
    package static func whole(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < b.count, b.count - i <= 18 else { return nil }
        var value: Int64 = 0
        while i < b.count {
            let d = b[i] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int64(d)
            i += 1
        }
        return negative ? -value : value
    }

    package static func whole(_ text: some StringProtocol) -> Int64? {
        var s = String(text)
        return s.withUTF8 { whole($0) }
    }

    /// Whether the text spells a non-finite value (nan, inf, infinity, any case or sign), so that a
    /// reader can say "must be finite" rather than "not a number".
    package static func isNonFiniteWord(_ text: some StringProtocol) -> Bool {
        var t = text.lowercased()[...]
        if t.hasPrefix("+") || t.hasPrefix("-") { t = t.dropFirst() }
        return t == "nan" || t == "inf" || t == "infinity"
    }
}
