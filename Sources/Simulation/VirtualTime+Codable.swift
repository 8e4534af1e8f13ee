/// Virtual time as plain integer nanoseconds in JSON: a sample that crosses a process boundary
/// (an item run in a child process) comes back bit-identical.
extension SimInstant: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(nanoseconds: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(nanoseconds)
    }
}

extension SimDuration: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(nanoseconds: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(nanoseconds)
    }
}
