/// One promise a role's variants make to the harness, stated once: the protocol's doc comment
/// quotes it, docs/your-own-variant.md's contract table lists it (a test compares the two), and the
/// harness checks it on every item and names it when it breaks.
///
/// A rule is data rather than a line of prose in each check so that the table, the check and the
/// failure line cannot drift apart: a role declares its rules as static constants (`CacheContract`,
/// `ReadinessContract`, …) and every check fails through `violated(at:)`.
public struct ContractRule: Sendable, Hashable, Codable {
    /// The role whose variants promise it, as the docs' table names it (`cache`, `readiness`).
    public var role: String
    /// What a variant promises, in one line (`0 ≤ count ≤ capacity after every operation`).
    public var statement: String

    /// A rule of `role`.
    public init(role: String, statement: String) {
        self.role = role
        self.statement = statement
    }

    /// Its row in docs/your-own-variant.md's contract table, up to the column saying where it is
    /// checked: what each role's tests look for, so the table and the declarations cannot drift.
    public var tableRow: String { "| \(role) | \(statement) |" }

    /// The violation of this rule at `event`: the first call or decision that broke it, with its
    /// virtual time in sim (`set(17) at 12.300 ms: count 65 > capacity 64`).
    public func violated(at event: String) -> ContractViolation {
        ContractViolation(rule: self, event: event)
    }
}
