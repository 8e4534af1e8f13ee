/// Virtual time as plain integer nanoseconds in JSON: a sample that crosses a process boundary
/// (an item run in a child process) comes back bit-identical.
extension SimInstant: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(nanoseconds: try decodeNanoseconds(decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeNanoseconds(nanoseconds, encoder)
    }
}

extension SimDuration: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(nanoseconds: try decodeNanoseconds(decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeNanoseconds(nanoseconds, encoder)
    }
}

/// The one coding of both virtual-time types: a single integer.
private func decodeNanoseconds(_ decoder: any Decoder) throws -> Int64 {
    try decoder.singleValueContainer().decode(Int64.self)
}

private func encodeNanoseconds(_ nanoseconds: Int64, _ encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(nanoseconds)
}
