/// What every registered variant says about itself: its name, origin, `--list` line, and whether
/// it runs when no `--variant` is given.
public struct VariantInfo: Sendable, Hashable {
    /// The `variant` column and the `--variant` name: lowercase letters, digits and hyphens.
    public var name: String
    /// Where it comes from: the `origin` column.
    public var origin: VariantOrigin
    /// One line for `--list`.
    public var summary: String
    /// Part of the run when `--variant` is not given.
    public var isDefault: Bool

    /// A variant's description; `isDefault: false` runs it only when `--variant` names it.
    public init(name: String, origin: VariantOrigin, summary: String, isDefault: Bool = true) {
        self.name = name
        self.origin = origin
        self.summary = summary
        self.isDefault = isDefault
    }
}

/// A variant of some pattern's role that a `VariantRegistry` can hold (a throttler, a lock, a
/// cache, a launch coordinator, …): its `info`, plus whatever the pattern needs to run it.
public protocol NamedVariant: Sendable {
    /// Its name, origin, `--list` line and whether it runs by default.
    var info: VariantInfo { get }
    /// What the variant is, beyond its name: its type and settings, as `--list --verbose` shows
    /// them. Two variants with the same (non-empty) parameters run the same thing, which `--list`
    /// points out, so a user sees when a variant of theirs duplicates one that already exists.
    var parameters: [VariantParameter] { get }
    /// Whether equal `parameters` mean the same variant (false when they show only part of it,
    /// like a launch coordinator's sim form, which needs a launch to be built).
    var parametersIdentifyIt: Bool { get }
}

extension NamedVariant {
    public var parameters: [VariantParameter] { [] }
    public var parametersIdentifyIt: Bool { true }
}

/// One `name = value` of a variant's `parameters`.
public struct VariantParameter: Sendable, Hashable, CustomStringConvertible {
    /// The parameter's name (a property or setting).
    public var name: String
    /// Its value, as `String(describing:)` prints it.
    public var value: String

    /// A parameter.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name) = \(value)" }

    /// A value's type and stored properties, by reflection (`type`, then one per property), for a
    /// variant whose parameters are the value it is built from (a policy, a declaration).
    public static func describing(_ value: Any, as role: String = "type") -> [VariantParameter] {
        var out = [VariantParameter(role, String(reflecting: Swift.type(of: value)))]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            out.append(VariantParameter(label, String(describing: child.value)))
        }
        return out
    }
}

/// The named variants of one role, in registration order: the suite's own and the user's,
/// registered the same way.
///
/// Registration validates the name (a duplicate or reserved name is a one-line usage error, so a
/// user's executable refuses to start rather than shadowing a suite variant), and resolution
/// turns `--variant a,b` into variants, naming the known ones when a name is unknown.
public struct VariantRegistry<Variant: NamedVariant>: Sendable {
    /// Names no variant may take: they mean something else in results or on the command line.
    public static var reservedNames: Set<String> { ["all", "none", "default", "-", "harness"] }

    /// Every registered variant, in registration order.
    public private(set) var variants: [Variant] = []

    /// An empty registry.
    public init() {}

    /// A registry of `variants`, in order; traps on an invalid or duplicate name, which in the
    /// suite's own list is a programming error (a user's registration goes through `register`).
    public init(builtIn variants: [Variant]) {
        for v in variants {
            do { try register(v) } catch { preconditionFailure(error.message) }
        }
    }

    /// Adds `variant`; refuses an invalid, reserved or already registered name.
    public mutating func register(_ variant: Variant) throws(BenchFailure) {
        let info = variant.info
        try Self.checkName(info.name)
        if let existing = variants.first(where: { $0.info.name == info.name }) {
            throw BenchFailure.usage(
                "variant '\(info.name)' (\(info.origin.rawValue)) is already registered (\(existing.info.origin.rawValue)): choose another name"
            )
        }
        variants.append(variant)
    }

    /// Checks a variant name: 1–48 characters, lowercase letters, digits and hyphens, starting
    /// with a letter, not reserved.
    public static func checkName(_ name: String) throws(BenchFailure) {
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard (1...48).contains(name.count), allowed, let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
            throw BenchFailure.usage(
                "variant name '\(name)': use 1–48 lowercase letters, digits and hyphens, starting with a letter"
            )
        }
        guard !reservedNames.contains(name) else {
            throw BenchFailure.usage("variant name '\(name)' is reserved (\(reservedNames.sorted().joined(separator: ", ")))")
        }
    }

    /// The registered variant named `name`, if any.
    public func named(_ name: String) -> Variant? { variants.first { $0.info.name == name } }

    /// The variants `--variant` asks for, or the default ones when it asks for none.
    public func resolve(_ requested: [String], flag: String = "--variant") throws(BenchFailure) -> [Variant] {
        if requested.isEmpty { return variants.filter(\.info.isDefault) }
        return try MatrixSelection.resolve(requested, flag: flag, from: variants, name: \.info.name)
    }

    /// Every variant's origin by name, for the `origin` column.
    public var origins: [String: VariantOrigin] {
        Dictionary(variants.map { ($0.info.name, $0.info.origin) }, uniquingKeysWith: { a, _ in a })
    }

    /// The `--list` lines, each labelled with its origin, with its parameters for `--verbose`; a
    /// variant whose parameters equal an earlier one's says so ("same as 'hedged'").
    public var catalogueEntries: [WorkloadCatalogue.Entry] {
        var seen: [[VariantParameter]: String] = [:]
        return variants.map { v in
            let parameters = v.parameters
            var summary = "[\(v.info.origin.rawValue)] \(v.info.summary)"
            if !parameters.isEmpty, v.parametersIdentifyIt {
                if let twin = seen[parameters] { summary += " (same parameters as '\(twin)')" } else { seen[parameters] = v.info.name }
            }
            var entry = WorkloadCatalogue.Entry(v.info.name, summary, isDefault: v.info.isDefault)
            entry.details = parameters.map(\.description)
            return entry
        }
    }

    /// The variant of `among` (default: every registered one) whose parameters equal `variant`'s,
    /// other than itself (nil when its parameters are empty or unique).
    public func twin(of variant: Variant, among candidates: [Variant]? = nil) -> Variant? {
        let parameters = variant.parameters
        guard !parameters.isEmpty, variant.parametersIdentifyIt else { return nil }
        return (candidates ?? variants).first { $0.info.name != variant.info.name && $0.parameters == parameters }
    }

    /// One line per `user` variant of a run whose parameters equal another variant's of the same
    /// run — the same strategy under a second name, which a user should know before comparing the
    /// two. Only variants that ran are named: a twin the run did not measure is `--list`'s to say.
    public func twinNotes(running: [Variant]) -> [String] {
        running.filter { $0.info.origin == .user }.compactMap { v in
            twin(of: v, among: running).map {
                "variant '\(v.info.name)' has the same parameters as '\($0.info.name)' (\($0.info.origin.rawValue)): it runs the same thing (--list --verbose)"
            }
        }
    }
}
