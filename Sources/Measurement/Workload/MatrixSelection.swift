/// What the user asked the matrix to contain, before a workload resolves it: names of scenarios
/// and variants, seeds, and whether to run short.
///
/// The command line fills it in; a pattern module resolves it against its own catalogue, so that
/// every workload reads `--scenario a,b`, `--seed`, `--seeds` and `--quick` the same way.
public struct MatrixSelection: Sendable {
    public var scenarios: [String]
    public var variants: [String]
    public var firstSeed: UInt64
    /// `--seeds K`, when given.
    public var seedCount: Int?
    public var quick: Bool

    public init(scenarios: [String] = [], variants: [String] = [], firstSeed: UInt64 = 1, seedCount: Int? = nil, quick: Bool = false) {
        self.scenarios = scenarios
        self.variants = variants
        self.firstSeed = firstSeed
        self.seedCount = seedCount
        self.quick = quick
    }

    /// The seeds of this run: `firstSeed, firstSeed+1, …` — `--seeds`, or 1 with `--quick`, or the
    /// workload's default.
    public func seeds(default count: Int) -> [UInt64] {
        let k = seedCount ?? (quick ? 1 : count)
        return (0..<UInt64(k)).map { firstSeed &+ $0 }
    }

    /// Checks every requested name against what exists, naming the flag and the known values; an
    /// empty request means all of them.
    public static func resolve<T>(_ requested: [String], flag: String, from all: [T], name: (T) -> String) throws(BenchFailure) -> [T] {
        guard !requested.isEmpty else { return all }
        var chosen: [T] = []
        var seen = Set<String>()
        for wanted in requested where seen.insert(wanted).inserted {
            guard let found = all.first(where: { name($0) == wanted }) else {
                throw BenchFailure.usage("unknown \(flag) '\(wanted)'; known: \(all.map(name).joined(separator: ", "))")
            }
            chosen.append(found)
        }
        return chosen
    }
}

extension MatrixSelection {
    /// One item per (scenario, seed, variant): scenario-major, then seed, then variant, the order
    /// the tables and files list them in. `make` gets the seed's index as the repetition.
    package static func items<Scenario, Variant, Item>(
        scenarios: [Scenario],
        seeds: [UInt64],
        variants: [Variant],
        _ make: (_ scenario: Scenario, _ variant: Variant, _ seed: UInt64, _ repetition: Int) -> Item
    ) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(scenarios.count * seeds.count * variants.count)
        for scenario in scenarios {
            for (repetition, seed) in seeds.enumerated() {
                for variant in variants { items.append(make(scenario, variant, seed, repetition)) }
            }
        }
        return items
    }
}
