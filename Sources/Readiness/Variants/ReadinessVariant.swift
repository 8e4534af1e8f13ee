import Measurement

/// One launch coordinator bench-readiness can run, registered by name in `Suite.coordinators`:
/// the suite's own and a user's go through the same `VariantRegistry.register`.
///
/// A coordinator has up to two forms: the sim form, a `ReadinessPolicy` on the main executor
/// (sim launches, and a live launch on a real main thread beside its simulation), and the live
/// form, a `ReadinessAPI` the re-entry probes call from real threads in a child process
/// (`--scenario reentrant-tasks`). It needs at least one; a scenario needing the form it lacks
/// refuses the variant when `--variant` names it, and skips it with a note otherwise.
///
/// ```swift
/// try suite.coordinators.register(ReadinessVariant(name: "group", origin: .user, summary: "…", live: { GroupReadiness() }))
/// ```
public struct ReadinessVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    /// Builds the sim form for one launch (nil: the variant has none).
    let makePolicy: (@Sendable (LaunchSession) -> any ReadinessPolicy)?
    /// Builds the live form for one probe (nil: the variant has none).
    let makeAPI: (@Sendable () -> any ReadinessAPI)?

    /// A coordinator with both forms.
    public init(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        sim: @escaping @Sendable (LaunchSession) -> any ReadinessPolicy,
        live: @escaping @Sendable () -> any ReadinessAPI
    ) {
        self.init(VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault), sim, live)
    }

    /// A coordinator with only the sim form: it sits out `reentrant-tasks`.
    public init(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        sim: @escaping @Sendable (LaunchSession) -> any ReadinessPolicy
    ) {
        self.init(VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault), sim, nil)
    }

    /// A coordinator with only the live form: it runs only in `reentrant-tasks`.
    public init(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        live: @escaping @Sendable () -> any ReadinessAPI
    ) {
        self.init(VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault), nil, live)
    }

    private init(
        _ info: VariantInfo,
        _ sim: (@Sendable (LaunchSession) -> any ReadinessPolicy)?,
        _ live: (@Sendable () -> any ReadinessAPI)?
    ) {
        self.info = info
        makePolicy = sim
        makeAPI = live
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }
    /// Whether it has the sim form (a `ReadinessPolicy`).
    public var hasSimForm: Bool { makePolicy != nil }
    /// Whether it has the live form (a `ReadinessAPI`).
    public var hasLiveForm: Bool { makeAPI != nil }

    /// Only part of it: two coordinators with the same live type may differ in their sim forms.
    public var parametersIdentifyIt: Bool { false }

    /// Its forms, and the live form's type (the sim form needs a launch to be built).
    public var parameters: [VariantParameter] {
        [
            VariantParameter("forms", [hasSimForm ? "sim" : nil, hasLiveForm ? "live" : nil].compactMap { $0 }.joined(separator: ",")),
            VariantParameter("live form", makeAPI.map { String(reflecting: Swift.type(of: $0())) } ?? "-"),
        ]
    }

    /// The sim form for `session`; only called for a variant that has it (the workload checks).
    func policy(session: LaunchSession) -> any ReadinessPolicy {
        guard let makePolicy else { preconditionFailure("\(name) has no sim form") }
        return makePolicy(session)
    }
}
