import Foundation

/// Which factor columns are numbers, so that the JSON gives a factor the type the CSV's reader
/// (pandas, polars) gives its column: `"threads": 1`, not `"threads": "1"`.
///
/// A workload keeps factor values as text (`ResultRecord.factors`); the type is decided per column
/// at encoding time: a column is numeric when each of its values is empty (not applicable: JSON
/// null, as a CSV reader's NaN) or a finite number in the CSV's own spelling (`CSVWriter.format`),
/// and at least one is not empty. That spelling is what makes the JSON round-trip exactly: a
/// number decodes back to the text it came from.
public enum FactorTypes {
    /// The encoder's `userInfo` key holding the numeric column names (a `Set<String>`).
    public static let numericColumnsKey = CodingUserInfoKey(rawValue: "patternbench.numericFactorColumns")!

    /// The numeric columns of `factors` (each row one record's or summary's factor values).
    public static func numericColumns(_ factors: [[String: String]]) -> Set<String> {
        var seen: Set<String> = []
        var text: Set<String> = []
        for row in factors {
            for (name, value) in row where !value.isEmpty {
                if isNumber(value) { seen.insert(name) } else { text.insert(name) }
            }
        }
        return seen.subtracting(text)
    }

    /// Whether `text` is a finite number as `CSVWriter.format` spells it.
    public static func isNumber(_ text: String) -> Bool {
        guard let value = Double(text), value.isFinite else { return false }
        return CSVWriter.format(value) == text
    }
}

/// One factor value in the JSON: text, a number, or null (not applicable).
enum JSONFactor: Codable {
    case text(String)
    case number(Double)
    case null

    var text: String {
        switch self {
        case .text(let s): s
        case .number(let n): CSVWriter.format(n)
        case .null: ""
        }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else {
            self = .number(try c.decode(Double.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s): try c.encode(s)
        case .number(let n):
            // Integers as integers (`1`, not `1.0`), as the CSV spells them.
            if n == n.rounded(), abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .null: try c.encodeNil()
        }
    }
}
