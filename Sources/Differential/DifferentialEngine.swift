import Simulation

/// The differential run: `cases` random cases, both variants on each, the first divergence
/// shrunk to a minimal case.
///
/// Case `i` is drawn from its own generator, `SeededGenerator.stream(i, of: seed)`, so case `i`
/// is the same whatever `cases` is, and its seed (written as `minimal.seed`) regenerates it.
public struct DifferentialEngine<Case: DifferentialCase>: Sendable {
    /// The two variants, A first.
    public var a: Case.Variant
    public var b: Case.Variant
    /// Slack allowed between two events' times.
    public var toleranceNs: Int64
    /// At most this many shrink attempts (each runs both variants once).
    public var shrinkBudget = 5_000

    /// An engine comparing `a` with `b`.
    public init(a: Case.Variant, b: Case.Variant, toleranceNs: Int64 = 0) {
        self.a = a
        self.b = b
        self.toleranceNs = toleranceNs
    }

    /// Where `input` makes the two variants differ, nil when their logs agree.
    public func difference(_ input: Case) -> LogDifference? {
        LogDifference.first(input.observe(a), input.observe(b), toleranceNs: toleranceNs)
    }

    /// The case with index `index` of a run seeded with `seed`, and that case's own seed.
    public static func generate(index: Int, seed: UInt64) -> (input: Case, seed: UInt64) {
        var stream = SeededGenerator.stream(UInt64(index) &+ 1, of: seed)
        let caseSeed = stream.next()
        var generator = SeededGenerator(seed: caseSeed)
        return (Case.random(&generator), caseSeed)
    }

    /// Runs `cases` cases from `seed`; the first divergent one is shrunk.
    public func run(cases: Int, seed: UInt64) -> DifferentialOutcome<Case> {
        var diverged = 0
        var first: (input: Case, seed: UInt64, index: Int, difference: LogDifference)?
        for i in 0..<cases {
            let (input, caseSeed) = Self.generate(index: i, seed: seed)
            guard let d = difference(input) else { continue }
            diverged += 1
            if first == nil { first = (input, caseSeed, i, d) }
        }
        guard let first else { return DifferentialOutcome(cases: cases, diverged: 0, minimal: nil) }
        let (shrunk, difference, steps) = shrink(first.input, first.difference)
        let minimal = MinimalCase(
            size: shrunk.size,
            seed: first.seed,
            caseIndex: first.index,
            originalSize: first.input.size,
            shrinkSteps: steps,
            input: shrunk,
            firstDifference: difference
        )
        return DifferentialOutcome(cases: cases, diverged: diverged, minimal: minimal)
    }

    /// Greedy shrinking: take the first candidate that still diverges and start again from it;
    /// stop when no candidate diverges (or the budget is spent). Returns the case, its difference
    /// and how many shrinks were kept.
    public func shrink(_ input: Case, _ difference: LogDifference) -> (Case, LogDifference, Int) {
        var current = (input, difference)
        var attempts = 0
        var kept = 0
        search: while attempts < shrinkBudget {
            for candidate in current.0.shrinkCandidates {
                attempts += 1
                if let d = self.difference(candidate) {
                    current = (candidate, d)
                    kept += 1
                    continue search
                }
                if attempts >= shrinkBudget { break search }
            }
            break
        }
        return (current.0, current.1, kept)
    }
}

/// What a differential run found.
public struct DifferentialOutcome<Case: DifferentialCase>: Sendable {
    /// Cases run.
    public var cases: Int
    /// Cases on which the two logs differed.
    public var diverged: Int
    /// The first divergent case, shrunk; nil when none diverged.
    public var minimal: MinimalCase<Case>?
}

/// The shrunk form of the first divergent case.
public struct MinimalCase<Case: DifferentialCase>: Sendable, Codable {
    /// Input events in the shrunk case.
    public var size: Int
    /// The seed of the original (unshrunk) case: `DifferentialEngine.generate` regenerates it.
    public var seed: UInt64
    /// Its index in the run.
    public var caseIndex: Int
    /// Input events in the original case.
    public var originalSize: Int
    /// Shrinks kept on the way.
    public var shrinkSteps: Int
    /// The shrunk case itself (what `--replay-case` reruns).
    public var input: Case
    /// Where the two logs first part on it.
    public var firstDifference: LogDifference

    enum CodingKeys: String, CodingKey {
        case size, seed
        case caseIndex = "case_index"
        case originalSize = "original_size"
        case shrinkSteps = "shrink_steps"
        case input
        case firstDifference = "first_difference"
    }
}
