import BenchCommandLine
import Locking

/// The command line, checked and resolved into a plan; every problem is one `BenchFailure` line.
struct AtomicsOptions {
    var plan: ContentionPlan
    var duration: Double
    var warmup: Double
    var pin: Bool
    var probeDuration: Double
    var full: Bool
    var common: CommonOptions

    init(command: BenchAtomics) throws {
        let common = command.common
        self.common = common
        full = command.full
        pin = command.pin
        let base = command.full ? ContentionPlan.full : ContentionPlan.defaultSlice
        var plan = base

        plan.operations = try common.resolve(common.scenarios, flag: "--scenario", from: ContentionOperation.allCases, name: \.name)
        if common.scenarios.isEmpty { plan.operations = base.operations }
        plan.variants = try common.resolve(common.variants, flag: "--variant", from: LockVariant.allCases, name: \.name)
        if common.variants.isEmpty { plan.variants = base.variants }

        let threadTexts = try Self.list(command.threads, flag: "--threads")
        if !threadTexts.isEmpty {
            plan.threads = try threadTexts.map { text in
                guard Self.isDigits(text), let n = Int(text), (1...ContentionPlan.maximumThreads).contains(n) else {
                    throw BenchFailure.usage("--threads must be whole numbers between 1 and \(ContentionPlan.maximumThreads), got '\(text)'")
                }
                return n
            }
        }
        if !command.csWork.isEmpty { plan.csWorks = try Self.amounts(command.csWork, flag: "--cs-work") }
        if !command.gapWork.isEmpty { plan.gapWorks = try Self.amounts(command.gapWork, flag: "--gap-work") }
        plan.threads = Self.unique(plan.threads)
        plan.csWorks = Self.unique(plan.csWorks)
        plan.gapWorks = Self.unique(plan.gapWorks)

        duration = try Self.seconds(command.duration ?? (common.quick ? 0.05 : 0.15), flag: "--duration", allowZero: false)
        warmup = try Self.seconds(command.warmup ?? (common.quick ? 0.01 : 0.03), flag: "--warmup", allowZero: true)
        probeDuration = try Self.seconds(command.probeDuration, flag: "--probe-duration", allowZero: true)

        if plan.cells.isEmpty {
            let supported = plan.variants.map { v in
                "\(v.name) runs \(ContentionOperation.allCases.filter(v.supports).map(\.name).joined(separator: "/"))"
            }
            throw BenchFailure.usage("no scenario in this selection can run on the chosen variants (\(supported.joined(separator: "; ")))")
        }
        self.plan = plan
    }

    /// The items of a list flag (`1,2 --threads 4`). Unlike `CommonOptions.splitList`, an empty
    /// item is an error: `--threads ''` or `--threads 1,,2` is a typo, not "use the default".
    static func list(_ values: [String], flag: String) throws -> [String] {
        try values.flatMap { value in
            try value.split(separator: ",", omittingEmptySubsequences: false).map { item in
                let text = item.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else {
                    throw BenchFailure.usage("\(flag) has an empty item in '\(BenchMain.errorLine(value))'; leave the flag out for the default")
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
}

import Foundation
