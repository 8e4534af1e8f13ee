/// A variant broke its role's contract: the item fails, it is not ranked.
///
/// Thrown by an item's `run`, in virtual time and live, for the suite's variants and a user's
/// alike. The driver treats it like a trap in a child process: the item is listed under
/// `failed_items` with `description` as its reason, none of its rows reach the CSV, the rankings
/// or the charts, the other items are written as in a clean run and the run exits 70. It crosses
/// the child-process boundary whole (`Codable`), so an isolated item fails with the same line as
/// one run in-process.
public struct ContractViolation: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The promise that broke.
    public var rule: ContractRule
    /// The first event that broke it, with its virtual time in sim.
    public var event: String

    /// A violation of `rule` at `event`; `rule.violated(at:)` reads better at a call site.
    public init(rule: ContractRule, event: String) {
        self.rule = rule
        self.event = event
    }

    /// The failed item's reason, one line: `broke the cache contract: 0 ≤ count ≤ capacity after
    /// every operation; first at set(17) at 12.300 ms: count 65`.
    public var description: String {
        "broke the \(rule.role) contract: \(rule.statement); first at \(event)"
    }
}
