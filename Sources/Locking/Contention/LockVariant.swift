import Measurement
import Synchronization

/// One lock strategy, whole atomic wrapper or reference bench-atomics can run, by name: the
/// `variant` column and `--variant`, registered in `Suite.locks`.
///
/// The suite's own variants and a user's go through the same `VariantRegistry.register`, one line
/// each:
///
/// ```swift
/// try suite.locks.register(LockVariant(name: "my-lock", origin: .user, summary: "…", lock: MyLock.self))
/// try suite.locks.register(LockVariant(name: "rwlock", origin: .user, summary: "…", wrapper: RWLockAtomic<UInt64>.self))
/// ```
///
/// What used to be a `switch` per property is data here: the operations it supports, whether it is
/// expected to keep every update, which C reference its `ratio_to_c` divides by. The initializer
/// captures, for the concrete lock or wrapper type, the closures that build its shared objects, so
/// that the worker loop is compiled for that type (a loop calling the lock through an existential
/// costs +50 % on an uncontended pthread mutex).
public struct LockVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    /// The scenarios it can run, in `ContentionOperation.allCases` order.
    public let operations: [ContentionOperation]
    /// False only for the control that must lose updates: the lost-update check skips it.
    public let isSynchronized: Bool
    /// The variant whose median ns/op `ratio_to_c` divides by (nil: no `ratio_to_c`).
    public let cReference: String?
    /// Why it cannot run on this platform (nil: it can), e.g. a glibc-only mutex kind elsewhere.
    public let unavailable: String?
    let targets: ContentionTargets

    /// A lock: the suite's atomic wrappers run every scenario on it (see `LockStrategy`).
    public init<Lock: LockStrategy>(name: String, origin: VariantOrigin, summary: String, isDefault: Bool = true, lock: Lock.Type) {
        self.init(
            info: VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault),
            operations: ContentionOperation.allCases,
            targets: ContentionTargets(lock: Lock.self, name: name)
        )
    }

    /// A whole atomic wrapper of a `UInt64`: `increment`, `read-mostly`, `flag`, `transition` and
    /// `different-atomics` (see `AtomicWrapper`).
    public init<Counter: AtomicWrapper<UInt64>>(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        wrapper: Counter.Type
    ) {
        self.init(
            info: VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault),
            operations: ContentionOperation.allCases.filter { $0.isCounterLike || $0 == .differentAtomics },
            targets: ContentionTargets(WrapperSource<Counter>(), exclusion: ContentionTargets.exclusion(Counter.self))
        )
    }

    /// A whole atomic wrapper with its array and dictionary forms too: every scenario.
    public init<Counter: AtomicWrapper<UInt64>, Array: AtomicWrapper<[UInt64]>, Dictionary: AtomicWrapper<[Int: UInt64]>>(
        name: String,
        origin: VariantOrigin,
        summary: String,
        isDefault: Bool = true,
        wrapper: Counter.Type,
        array: Array.Type,
        dictionary: Dictionary.Type
    ) {
        self.init(
            info: VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault),
            operations: ContentionOperation.allCases,
            targets: ContentionTargets(
                WrapperCollectionsSource<Counter, Array, Dictionary>(),
                exclusion: ContentionTargets.exclusion(Counter.self)
            )
        )
    }

    /// The full form, for the suite's references and Signal's atomics.
    init(
        info: VariantInfo,
        operations: [ContentionOperation],
        isSynchronized: Bool = true,
        cReference: String? = "c-pthread-mutex",
        unavailable: String? = nil,
        targets: ContentionTargets
    ) {
        self.unavailable = unavailable
        self.info = info
        self.operations = operations
        self.isSynchronized = isSynchronized
        self.cReference = cReference
        self.targets = targets
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }

    /// Its `--list` line.
    public var summary: String { info.summary }

    /// Whether this variant can run `operation` at all.
    public func supports(_ operation: ContentionOperation) -> Bool { operations.contains(operation) }

    /// The lock or wrapper type it runs on, the scenarios it runs, and its references.
    public var parameters: [VariantParameter] {
        [
            VariantParameter("implementation", targets.implementation),
            VariantParameter("scenarios", operations.map(\.name).joined(separator: ",")),
            VariantParameter("synchronized", String(isSynchronized)), VariantParameter("c reference", cReference ?? "-"),
        ]
    }

    /// True for the variants that are not a lock strategy but a yardstick for one (origin `reference`).
    public var isReference: Bool { info.origin == .reference }
}

extension LockVariant: Hashable {
    /// Variants are their names: a registry holds each name once.
    public static func == (a: LockVariant, b: LockVariant) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension LockVariant: Codable {
    /// The variants a decoded name may refer to: the suite's own plus those of the run's registry
    /// (`AtomicsWorkload` publishes them), so that an isolated item's sample decodes in the parent.
    private static let known = Mutex<[String: LockVariant]>(Dictionary(uniqueKeysWithValues: builtIn.map { ($0.name, $0) }))

    package static func publish(_ variants: [LockVariant]) {
        known.withLock { table in for v in variants { table[v.name] = v } }
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let variant = Self.known.withLock({ $0[name] }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown lock variant '\(name)'"))
        }
        self = variant
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
