/// The first broken rule of one item's run, kept while the run goes on and thrown when it ends.
///
/// A check sits in the harness, beside the calls into a variant, never inside a measured kernel:
/// each `require` is one comparison the caller evaluates, and the event's text is built only for
/// the first failure (`@autoclosure`), so a run that keeps its contract pays O(1) per event and
/// allocates nothing. Keeping only the first violation, rather than stopping at it, leaves the
/// run's control flow (and so a clean run's numbers) exactly as it was; `verify()` after the run
/// turns the first one into the item's failure.
public struct ContractCheck: Sendable {
    /// The first violation seen, if any.
    public private(set) var first: ContractViolation?

    /// No violation yet.
    public init() {}

    /// Whether a rule has broken.
    public var isBroken: Bool { first != nil }

    /// Records a violation of `rule` at `event` unless `holds`, or unless one is already recorded.
    @inlinable
    public mutating func require(_ holds: Bool, _ rule: ContractRule, at event: @autoclosure () -> String) {
        if !holds, first == nil { record(rule.violated(at: event())) }
    }

    /// Records `violation` unless one is already recorded (for a check that builds its own).
    public mutating func record(_ violation: ContractViolation) {
        if first == nil { first = violation }
    }

    /// Throws the first violation, if there was one: the item fails.
    public func verify() throws(ContractViolation) {
        if let first { throw first }
    }
}
