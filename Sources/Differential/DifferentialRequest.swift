import Foundation
import Measurement
import Records

/// What a tool's differential flags asked for, validated before anything runs.
public struct DifferentialRequest: Sendable {
    /// `--differential A,B` split (nil: not given, which only `--replay-case` allows).
    public var variants: [String]?
    /// `--cases N`.
    public var cases: Int
    /// `--seed S`.
    public var seed: UInt64
    /// `--time-tolerance-ns`.
    public var toleranceNs: Int64
    /// `--replay-case FILE`.
    public var replay: String?
    /// The folder for `differential.json` (`--output`, or the tool's new folder under results/runs/).
    public var output: String

    /// A request from the flags' values.
    public init(variants: [String]?, cases: Int, seed: UInt64, toleranceNs: Int64, replay: String?, output: String) {
        self.variants = variants
        self.cases = cases
        self.seed = seed
        self.toleranceNs = toleranceNs
        self.replay = replay
        self.output = output
    }

    /// The two variants by name from `registry` (one named twice is allowed: a variant against
    /// itself); anything else is a one-line usage failure.
    public func resolve<Case: DifferentialCase>(
        _ names: [String],
        in registry: VariantRegistry<Case.Variant>,
        for type: Case.Type
    ) throws(BenchFailure) -> (Case.Variant, Case.Variant) where Case.Variant: NamedVariant {
        guard names.count == 2, !names.contains(where: \.isEmpty) else {
            throw .usage("--differential takes exactly two variants, A,B (got \(names.count)); name one twice to check it against itself")
        }
        var found: [Case.Variant] = []
        for name in names {
            guard let v = registry.named(name) else {
                throw .usage(
                    "--differential: unknown variant '\(name)'; known: \(registry.variants.map(\.info.name).joined(separator: ", "))"
                )
            }
            if let reason = Case.refusal(v) { throw .usage("--differential: \(reason)") }
            found.append(v)
        }
        return (found[0], found[1])
    }

    /// Checks the numbers: at least one case, a tolerance that is not negative.
    public func validate() throws(BenchFailure) {
        guard cases > 0 else { throw .usage("--cases must be at least 1 (got \(cases))") }
        guard toleranceNs >= 0 else { throw .usage("--time-tolerance-ns must not be negative (got \(toleranceNs))") }
    }
}

/// A differential run from a tool's flags, written once for every workload: validate, run (or
/// replay), write `differential.json`, print the short table.
public enum DifferentialCommand {
    /// Runs `request` for `Case` with the variants of `registry`; returns the exit code: 0 when no
    /// case diverged (or the replayed case no longer diverges), 1 when one did.
    public static func run<Case: DifferentialCase>(
        _ type: Case.Type,
        registry: VariantRegistry<Case.Variant>,
        request: DifferentialRequest
    ) throws -> Int32 where Case.Variant: NamedVariant {
        try request.validate()
        if let replay = request.replay { return try self.replay(Case.self, path: replay, registry: registry, request: request) }
        guard let names = request.variants else { throw BenchFailure.usage("--differential A,B names the two variants to compare") }
        let (a, b) = try request.resolve(names, in: registry, for: Case.self)
        let folder = try prepareFolder(request.output, workload: Case.workload)
        let engine = DifferentialEngine<Case>(a: a, b: b, toleranceNs: request.toleranceNs)
        let outcome = engine.run(cases: request.cases, seed: request.seed)
        let report = DifferentialReport(outcome: outcome, variants: names, seed: request.seed, toleranceNs: request.toleranceNs)
        let path = try report.write(toFolder: folder)
        print(DifferentialTable.render(report), terminator: "")
        print("wrote \(path)")
        return outcome.diverged > 0 ? 1 : 0
    }

    /// Reruns the minimal case of a `differential.json` (with its variants, or `--differential`'s).
    static func replay<Case: DifferentialCase>(
        _ type: Case.Type,
        path: String,
        registry: VariantRegistry<Case.Variant>,
        request: DifferentialRequest
    ) throws -> Int32 where Case.Variant: NamedVariant {
        let report = try DifferentialReport<Case>.read(path)
        guard let minimal = report.minimal else {
            throw BenchFailure.usage("--replay-case: \(path) holds no divergent case (its run found none)")
        }
        let names = request.variants ?? report.variants
        let (a, b) = try request.resolve(names, in: registry, for: Case.self)
        let engine = DifferentialEngine<Case>(a: a, b: b, toleranceNs: request.toleranceNs)
        let difference = engine.difference(minimal.input)
        print("replay \(Case.workload): \(names[0]) vs \(names[1]) on the case of \(path) (size \(minimal.input.size))")
        if let difference {
            print("still diverges at event \(difference.index), \(difference.atNs) ns")
            print("  \(names[0]): \(difference.a.map(\.description) ?? "(log ended)")")
            print("  \(names[1]): \(difference.b.map(\.description) ?? "(log ended)")")
            return 1
        }
        print("no longer diverges: both logs agree event by event")
        return 0
    }

    /// Creates the output folder and takes its lock, before anything runs.
    static func prepareFolder(_ path: String, workload: String) throws -> String {
        do { try ResultsFolder(path: path).prepare(workload: "differential") } catch { throw BenchFailure.output(error.description) }
        return path
    }
}

/// The short stdout table of a differential run.
enum DifferentialTable {
    static func render<Case: DifferentialCase>(_ r: DifferentialReport<Case>) -> String {
        let (a, b) = (r.variants[0], r.variants[1])
        var text = "differential \(r.workload): \(a) vs \(b), \(r.cases) cases from seed \(r.seed), tolerance \(r.timeToleranceNs) ns\n"
        let header = ["cases", "diverged", "minimal size", "shrunk from", "first difference"]
        var row = ["\(r.cases)", "\(r.diverged)", "-", "-", "-"]
        if let m = r.minimal {
            row[2...4] = ["\(m.size)", "\(m.originalSize)", "event \(m.firstDifference.index) at \(m.firstDifference.atNs) ns"]
        }
        let widths = zip(header, row).map { max($0.count, $1.count) }
        func line(_ cells: [String]) -> String {
            let padded = zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
            return String(padded.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        text += line(header) + line(row)
        if let m = r.minimal {
            text += "  \(a): \(m.firstDifference.a.map(\.description) ?? "(log ended)")\n"
            text += "  \(b): \(m.firstDifference.b.map(\.description) ?? "(log ended)")\n"
        }
        return text
    }
}
