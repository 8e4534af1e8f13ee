import Foundation

/// What the harness hands every child process through `spec.json` in the run's folder: the
/// variant, the plan (the same one the simulation runs), and the bounds of the children's life
/// (their shared start instant, a hard deadline, the harness's pid).
struct LiveRunSpec: Codable {
    var variant: InvalidationVariant
    var plan: InvalidationPlan
    var debounceNs: Int64
    var lifetime: ChildLifetime

    static func path(_ directory: String) -> String { "\(directory)/spec.json" }
    static func databasePath(_ directory: String) -> String { "\(directory)/db.sqlite" }
    static func statePath(_ directory: String) -> String { "\(directory)/shared.state" }
    static func writersDonePath(_ directory: String) -> String { "\(directory)/writers-done" }
    static func resultPath(_ directory: String, _ role: ProcessRole) -> String { "\(directory)/\(role.rawValue).result.json" }
    static func logPath(_ directory: String, _ role: ProcessRole) -> String { "\(directory)/\(role.rawValue).log" }

    /// The FIFOs the main app listens on (the extensions never react, so they listen on none).
    func mainChannels() -> [String] {
        guard variant.listens else { return [] }
        return variant.sharedChannel ? ["shared"] : [ProcessRole.nse.rawValue, ProcessRole.share.rawValue]
    }

    /// The name `role` posts under.
    func channel(of role: ProcessRole) -> String { variant.sharedChannel ? "shared" : role.rawValue }
}

/// The share extension's result: what its never-invalidated cache served.
struct ShareResult: Codable {
    var reads: Int
    var staleReads: Int
}
