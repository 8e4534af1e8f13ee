/// The three processes that share Signal's database (`AppContextType`): the main app, the
/// notification service extension and the share extension.
public enum ProcessRole: String, CaseIterable, Sendable, Codable {
    case main, nse, share

    /// One byte on the live channel, for accounting only (the policies never read it: Darwin
    /// notifications carry no payload).
    var tag: UInt8 {
        switch self {
        case .main: UInt8(ascii: "m")
        case .nse: UInt8(ascii: "n")
        case .share: UInt8(ascii: "s")
        }
    }

    init?(tag: UInt8) {
        guard let role = Self.allCases.first(where: { $0.tag == tag }) else { return nil }
        self = role
    }
}
