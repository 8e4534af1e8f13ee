/// Factor values as the results JSON spells them: kept as the CSV's text, written with their
/// column's type (`FactorTypes`: a numeric column as numbers, from the encoder's `userInfo`), read
/// back either way (text before schema version 3, typed since; a number as its CSV spelling, null
/// as empty).
///
/// A property wrapper, so that the types that carry factors (`ResultRecord`, `SummaryRow`) keep
/// their synthesized coding and only this part of the schema is written out.
@propertyWrapper
public struct TypedFactors: Codable, Hashable, Sendable {
    public var wrappedValue: [String: String]

    public init(wrappedValue: [String: String]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode([String: JSONFactor].self).mapValues(\.text)
    }

    public func encode(to encoder: any Encoder) throws {
        let numeric = encoder.userInfo[FactorTypes.numericColumnsKey] as? Set<String> ?? []
        var values: [String: JSONFactor] = [:]
        for (name, value) in wrappedValue {
            if numeric.contains(name) {
                values[name] = value.isEmpty ? .null : Double(value).map(JSONFactor.number) ?? .text(value)
            } else {
                values[name] = .text(value)
            }
        }
        var c = encoder.singleValueContainer()
        try c.encode(values)
    }
}
