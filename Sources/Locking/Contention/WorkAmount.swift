import Foundation

/// An amount of busy work, as written on the command line and in the factor columns:
/// "0", "50ns", "500ns", "1us" (also "µs" and "ms").
package struct WorkAmount: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var nanoseconds: Double
    /// The text it was given as, normalised: what the `cs_work`/`gap_work` columns hold.
    package var label: String

    package static let none = WorkAmount(nanoseconds: 0, label: "0")

    package init(nanoseconds: Double, label: String) {
        self.nanoseconds = nanoseconds
        self.label = label
    }

    /// The largest accepted amount: one work unit above 1 ms would make one operation a time slice.
    package static let maximumNanoseconds = 1_000_000.0

    /// Parses "0", "50ns", "500ns", "1us", "1µs", "0.5ms"; nil for anything else, negative,
    /// non-finite or above 1 ms.
    package init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "0" || t == "none" {
            self = .none
            return
        }
        let units: [(suffix: String, scale: Double, label: String)] = [
            ("ns", 1, "ns"), ("us", 1_000, "us"), ("µs", 1_000, "us"), ("ms", 1_000_000, "ms"),
        ]
        for unit in units where t.hasSuffix(unit.suffix) {
            let number = String(t.dropLast(unit.suffix.count))
            guard Self.isPlainDecimal(number), let value = Double(number), value.isFinite, value >= 0 else { return nil }
            let ns = value * unit.scale
            guard ns <= Self.maximumNanoseconds else { return nil }
            if ns == 0 {
                self = .none
                return
            }
            let shown = value == value.rounded() ? String(Int64(value)) : String(value)
            self.init(nanoseconds: ns, label: shown + unit.label)
            return
        }
        return nil
    }

    /// Digits with at most one decimal point (`50`, `0.5`, `.5`): what the flag documents.
    /// `Double` alone would also take `0x10` (16), `1e3`, `nan`, `inf` and a sign.
    static func isPlainDecimal(_ text: String) -> Bool {
        var digits = 0, points = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }

    package var isZero: Bool { nanoseconds == 0 }
    package var description: String { label }

    package static func < (lhs: WorkAmount, rhs: WorkAmount) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
