import Simulation

/// One random input of a workload's kind, run by two variants whose observable logs are compared.
///
/// A conforming type is the input itself (commits, a launch plan, a key sequence): it is drawn from
/// a seeded generator, so a case is the same for a seed on every machine; it is `Codable`, so the
/// minimal case can be written to `differential.json` and replayed; and it lists simpler versions
/// of itself, so a divergence can be shrunk to the smallest input that still shows it.
public protocol DifferentialCase: Sendable, Codable {
    /// The variant type the workload's registry holds (the suite's own and a user's alike).
    associatedtype Variant: Sendable
    /// The workload's name, as the tools and `differential.json` spell it (`throttle`, …).
    static var workload: String { get }
    /// A random case drawn from `generator` (the engine hands each case its own generator).
    static func random(_ generator: inout SeededGenerator) -> Self
    /// The number of input events (commits, blocks and inputs, operations): what shrinking lowers.
    var size: Int { get }
    /// Simpler versions of this case, the most promising first: each drops an event, zeroes a
    /// cost, pulls times together or lowers a count. Every candidate must be strictly simpler by
    /// some measure that cannot go down forever, so that greedy shrinking ends.
    var shrinkCandidates: [Self] { get }
    /// Runs `variant` on this case and returns what it observably did, in order. Deterministic:
    /// the same case and variant give the same log. A broken contract is an event of the log
    /// (kind `violation`), not an error.
    func observe(_ variant: Variant) -> [ObservedEvent]
    /// Why `variant` cannot take part in this workload's differential runs (nil: it can).
    static func refusal(_ variant: Variant) -> String?
}

extension DifferentialCase {
    /// Every variant can take part unless the workload says otherwise.
    public static func refusal(_ variant: Variant) -> String? { nil }
}
