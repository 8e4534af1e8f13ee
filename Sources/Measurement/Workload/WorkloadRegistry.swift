/// Every workload the suite ships, in one place: the list the gate, the tests, the analysis package
/// and the CI files are checked against.
///
/// Before it, nine hand-kept lists named the workloads (a gate test's tool list, the analysis
/// factor types, workflow and script loops) and each lagged behind in its own way. Now the Swift
/// tests derive their lists from `WorkloadRegistry.all`, `bench-gate --list-workloads --json`
/// prints it for everything else (the analysis package reads the committed copy,
/// `analysis/patternbench_analysis/workloads.json`, which a test keeps equal to it), and where a
/// list must stay written out (Package.swift, workflows, scripts) `WorkloadRegistryTests` fails
/// naming the missing workload and the file.
public enum WorkloadRegistry {
    /// The suite's workloads in the order the README introduces them.
    public static let all: [WorkloadDescriptor] = [
        WorkloadDescriptor(name: "throttle", module: "Throttling", openToVariants: true),
        WorkloadDescriptor(
            name: "atomics",
            module: "Locking",
            factors: [.numeric("threads"), .numeric("cs_work_ns"), .numeric("gap_work_ns")],
            openToVariants: true
        ),
        WorkloadDescriptor(name: "clock", module: "Timekeeping", factors: [.text("client")], openToVariants: false),
        WorkloadDescriptor(name: "readiness", module: "Readiness", factors: [.text("globals")], openToVariants: true),
        WorkloadDescriptor(name: "invalidation", module: "Invalidation", openToVariants: false),
        WorkloadDescriptor(
            name: "cache",
            module: "Caching",
            factors: [.text("context"), .numeric("capacity"), .numeric("threads")],
            openToVariants: true
        ),
        WorkloadDescriptor(name: "group", module: "FanOut", factors: [.text("movies")], openToVariants: true),
        WorkloadDescriptor(name: "lifecycle", module: "Lifecycle", factors: [.text("durability")], openToVariants: true),
    ]

    /// The workload called `name`, if the suite has one.
    public static func workload(named name: String) -> WorkloadDescriptor? {
        all.first { $0.name == name }
    }
}

/// One workload as the rest of the project needs to know it: its name (the `workload` column and
/// file stem), its executable, its module, its factor columns with their types, and whether a
/// user's package can register variants on it (`my-bench NAME`, see docs/your-own-variant.md).
public struct WorkloadDescriptor: Sendable, Hashable, Codable {
    /// One workload-specific factor column and how it must read in the tidy CSV.
    public struct Factor: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            /// Reads as a number with pandas', polars' and DuckDB's defaults.
            case numeric
            /// A label.
            case text
        }

        public var name: String
        public var type: Kind

        public static func numeric(_ name: String) -> Factor { Factor(name: name, type: .numeric) }
        public static func text(_ name: String) -> Factor { Factor(name: name, type: .text) }
    }

    public var name: String
    /// `bench-<name>`: the product in Package.swift and the binary CI runs.
    public var executable: String
    /// The library module holding the model and its `Workload` conformance.
    public var module: String
    /// The factor columns, in CSV column order (the workload's `factorNames`).
    public var factors: [Factor]
    /// A BenchSuite command: users' variants can be registered on it.
    public var openToVariants: Bool
    /// The workload's guide.
    public var documentation: String

    public init(name: String, module: String, factors: [Factor] = [], openToVariants: Bool) {
        self.name = name
        self.executable = "bench-\(name)"
        self.module = module
        self.factors = factors
        self.openToVariants = openToVariants
        self.documentation = "docs/bench-\(name).md"
    }

    enum CodingKeys: String, CodingKey {
        case name, executable, module, factors
        case openToVariants = "open_to_variants"
        case documentation
    }
}
