import Foundation
import Measurement

extension AtomicsWorkload: RegistryWorkload {
    /// The matrix the configuration and the environment's selection ask for, validated.
    static func resolve(_ configuration: AtomicsConfiguration, _ environment: Environment) throws -> ContentionPlan {
        let (selection, registry) = (environment.selection, environment.registry)
        var base = configuration.full ? ContentionPlan.full : ContentionPlan.defaultSlice
        base.variants = (configuration.full ? registry.variants : try registry.resolve([])).filter { $0.unavailable == nil }
        var plan = base
        plan.operations =
            selection.scenarios.isEmpty
            ? base.operations
            : try MatrixSelection.resolve(selection.scenarios, flag: "--scenario", from: ContentionOperation.allCases, name: \.name)
        plan.variants =
            selection.variants.isEmpty
            ? base.variants
            : try environment.selectedVariants()
        if let v = plan.variants.first(where: { $0.unavailable != nil }) {
            throw BenchFailure.usage("--variant \(v.name) cannot run here: \(v.unavailable!)")
        }
        let threadTexts = try list(configuration.threads, flag: "--threads")
        if !threadTexts.isEmpty {
            plan.threads = try threadTexts.map { text in
                guard isDigits(text), let n = Int(text), (1...ContentionPlan.maximumThreads).contains(n) else {
                    throw BenchFailure.usage(
                        "--threads must be whole numbers between 1 and \(ContentionPlan.maximumThreads), got '\(text)'"
                    )
                }
                return n
            }
        }
        if !configuration.csWork.isEmpty { plan.csWorks = try amounts(configuration.csWork, flag: "--cs-work") }
        if !configuration.gapWork.isEmpty { plan.gapWorks = try amounts(configuration.gapWork, flag: "--gap-work") }
        plan.threads = unique(plan.threads)
        plan.csWorks = unique(plan.csWorks)
        plan.gapWorks = unique(plan.gapWorks)
        if plan.cells.isEmpty {
            let supported = plan.variants.map { v in
                "\(v.name) runs \(v.operations.map(\.name).joined(separator: "/"))"
            }
            throw BenchFailure.usage("no scenario in this selection can run on the chosen variants (\(supported.joined(separator: "; ")))")
        }
        return plan
    }

    /// The items of a list flag (`1,2 --threads 4`). An empty item is an error: `--threads ''` or
    /// `--threads 1,,2` is a typo, not "use the default".
    static func list(_ values: [String], flag: String) throws -> [String] {
        try values.flatMap { value in
            try value.split(separator: ",", omittingEmptySubsequences: false).map { item in
                let text = item.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else {
                    throw BenchFailure.usage("\(flag) has an empty item in '\(value)'; leave the flag out for the default")
                }
                return text
            }
        }
    }

    /// Plain decimal digits only: `Int("+4")` would pass, and hex or other bases are not documented.
    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    static func amounts(_ values: [String], flag: String) throws -> [WorkAmount] {
        try list(values, flag: flag).map { text in
            guard let amount = WorkAmount(parsing: text) else {
                throw BenchFailure.usage("\(flag) takes amounts like 0, 50ns, 500ns, 1us (at most 1ms), got '\(text)'")
            }
            return amount
        }
    }

    static func seconds(_ value: Double, flag: String, allowZero: Bool) throws -> Double {
        guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= 600 else {
            throw BenchFailure.usage("\(flag) must be a number of seconds \(allowZero ? "from 0" : "above 0") up to 600, got \(value)")
        }
        return value
    }

    static func unique<T: Hashable>(_ values: [T]) -> [T] {
        var seen = Set<T>()
        return values.filter { seen.insert($0).inserted }
    }

    /// What `--list` prints for a suite's registry: each variant labelled with its origin.
    package static func catalogue(variants: VariantRegistry<LockVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init(
                    "scenarios (operations, --scenario)",
                    ContentionOperation.allCases.map {
                        .init($0.name, $0.summary, isDefault: ContentionOperation.defaultSlice.contains($0))
                    }
                ),
                .init(
                    "variants (lock strategies and references, --variant)",
                    variants.catalogueEntries
                ),
            ],
            footer: ["factors: threads (default 1,2,4,8), cs_work_ns (--cs-work, default 0,50ns), gap_work_ns (--gap-work, default 0)"]
        )
    }
}
