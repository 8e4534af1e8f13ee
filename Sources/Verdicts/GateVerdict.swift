import Foundation
import Records

/// What the gate concluded, as written to `gate.json` beside the results.
public struct GateVerdict: Codable, Sendable {
    public enum Verdict: String, Codable, Sendable { case pass, regression, error }

    public var verdict: Verdict
    /// 0 pass, 1 regression, 2 usage or input error, 3 baseline missing or incompatible.
    public var exitCode: Int32
    public var summaryMarkdown: String
    public var results: String
    public var baseline: String?
    public var thresholds: [ThresholdOutcome]
    public var comparison: BaselineComparison?
    /// Items that failed in their own process; the rest of their run was gated.
    public var failedItems: [FailedItem]
    /// The baseline folder `--update-baseline` created (there was none to compare with).
    public var firstBaseline: String?
    /// One line per reason for a regression verdict (empty on a pass).
    public var why: [String]

    enum CodingKeys: String, CodingKey {
        case verdict
        case exitCode = "exit_code"
        case summaryMarkdown = "summary_markdown"
        case results, baseline, thresholds, comparison, why
        case failedItems = "failed_items"
        case firstBaseline = "first_baseline"
    }

    public init(
        results: String,
        baseline: String?,
        thresholds: [ThresholdOutcome],
        comparison: BaselineComparison?,
        failedItems: [FailedItem] = [],
        firstBaseline: String? = nil
    ) {
        self.results = results
        self.baseline = baseline
        self.thresholds = thresholds
        self.comparison = comparison
        self.failedItems = failedItems
        self.firstBaseline = firstBaseline
        var why: [String] = []
        if !failedItems.isEmpty {
            let workloads = ThresholdCheck.ordered(failedItems.map(\.workload)).joined(separator: ", ")
            why.append("\(failedItems.count) item\(failedItems.count == 1 ? "" : "s") of \(workloads) failed to run")
        }
        let failing = thresholds.filter { $0.status == .fail }
        if !failing.isEmpty {
            why.append("\(ThresholdCheck.ordered(failing.map(\.id)).count) threshold(s) failed")
        }
        if let c = comparison, !c.deterministicRegressions.isEmpty {
            why.append("\(c.deterministicRegressions.count) deterministic value(s) differ from the baseline")
        }
        if let c = comparison, !c.hardwareRegressions.isEmpty {
            why.append("\(c.hardwareRegressions.count) hardware metric cell(s) regressed")
        }
        self.why = why
        verdict = why.isEmpty ? .pass : .regression
        exitCode = why.isEmpty ? 0 : 1
        summaryMarkdown = ""
        summaryMarkdown = GateSummary.markdown(self)
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }
}

/// The markdown summary, fit for a CI job page.
enum GateSummary {
    static func markdown(_ v: GateVerdict) -> String {
        let fmt = CSVWriter.format
        var out = "## PatternBench gate: \(v.verdict == .pass ? "PASS" : "REGRESSION")\n\n"
        if !v.why.isEmpty { out += "Why: \(v.why.joined(separator: "; ")).\n\n" }
        out += "Results `\(v.results)`"
        if let first = v.firstBaseline {
            out += " (no baseline at `\(first)` yet: these results become its first one).\n\n"
        } else {
            out += v.baseline.map { " against baseline `\($0)`.\n\n" } ?? " (no baseline comparison).\n\n"
        }
        if !v.failedItems.isEmpty {
            out += "### Failed items: \(v.failedItems.count) (the rest of their runs is gated below)\n\n"
            out += "| workload | item | why |\n|---|---|---|\n"
            for f in v.failedItems { out += "| \(f.workload) | \(f.item) | \(f.reason) |\n" }
            out += "\n"
        }
        let counts = Dictionary(grouping: v.thresholds, by: \.status).mapValues(\.count)
        out += "### Thresholds: \(counts[.pass] ?? 0) passed, \(counts[.fail] ?? 0) failed, \(counts[.skipped] ?? 0) skipped\n\n"
        let failed = v.thresholds.filter { $0.status == .fail }
        if !failed.isEmpty {
            out += "| status | threshold | scenario / variant | values | why it matters |\n|---|---|---|---|---|\n"
            for o in failed {
                out += "| **FAIL** | `\(o.id)` | \(o.scenario) / \(o.variant) | \(o.detail) | \(o.reason) |\n"
            }
            out += "\n"
        }
        // Skips are listed compactly (every one is in gate.json with its reason): a run of one
        // workload skips the other workloads' thresholds, and a table of them buries the failures.
        let skipped = v.thresholds.filter { $0.status == .skipped }
        if !skipped.isEmpty {
            let ids = ThresholdCheck.ordered(skipped.map(\.id))
            let shown = ids.prefix(8).map { "`\($0)`" }.joined(separator: ", ")
            out +=
                "Skipped (workload not in these results, hardware on a debug build, or optional without data here; each reason in gate.json): \(shown)"
            out += ids.count > 8 ? " and \(ids.count - 8) more.\n\n" : ".\n\n"
        }
        guard let c = v.comparison else { return out }
        out += "### Deterministic metrics: \(c.deterministicCompared) compared, \(c.deterministicRegressions.count) changed"
        let added = c.changes.count - c.deterministicRegressions.count
        out += added > 0 ? ", \(added) new\n\n" : "\n\n"
        if !c.changes.isEmpty {
            out += "| workload | scenario | variant | seed | metric | baseline | now |\n|---|---|---|---|---|---|---|\n"
            for ch in c.changes.prefix(50) {
                out +=
                    "| \(ch.workload) | \(ch.scenario) | \(ch.variant)\(factorText(ch.factors)) | \(ch.seed) | \(ch.metric) | \(ch.baseline.map(fmt) ?? "–") | \(ch.current.map(fmt) ?? "missing") |\n"
            }
            if c.changes.count > 50 { out += "\n… and \(c.changes.count - 50) more (see gate.json)\n" }
            out += "\n"
        }
        let byStatus = Dictionary(grouping: c.hardware, by: \.status).mapValues(\.count)
        let against = c.hardwareReference.map { " against the \($0)" } ?? ""
        let tested = c.hardware.count - (byStatus[.notComparable] ?? 0)
        out +=
            "### Hardware metrics\(against): \(tested) compared, \(byStatus[.regression] ?? 0) regressed, \(byStatus[.improvement] ?? 0) improved, \(byStatus[.inconclusive] ?? 0) inconclusive"
        out += (byStatus[.notComparable] ?? 0) > 0 ? ", \(byStatus[.notComparable]!) not comparable\n\n" : "\n\n"
        out +=
            "Rule \(VerdictRule.name) (docs/analysis.md, the same as pb-analysis compare): Mann–Whitney per live cell, Benjamini–Hochberg at \(VerdictRule.q) over every live cell both sides hold, Hodges–Lehmann change beyond the tolerance; run medians with ≥ \(VerdictRule.minimumRuns) runs a side, otherwise repetitions that must clear the A/A noise floor (inconclusive without one).\n\n"
        for note in c.notes { out += "- \(note)\n" }
        if !c.notes.isEmpty { out += "\n" }
        let notable = c.hardware.filter { $0.status != .ok && $0.status != .notComparable }
        if !notable.isEmpty {
            out +=
                "| status | workload | scenario / variant | metric | baseline median | now | change of the medians | estimate judged (interval) | why |\n|---|---|---|---|---|---|---|---|---|\n"
            for h in notable {
                // The medians' change, whose sign agrees with the two medians beside it; the estimate
                // judged (after a common shift, see `why`) in its own column.
                let medians =
                    h.baselineMedian != 0
                    ? String(format: "%+.1f %%", 100 * (h.currentMedian - h.baselineMedian) / abs(h.baselineMedian)) : "–"
                let change = h.change.map { String(format: "%+.1f %%", 100 * $0) } ?? "–"
                let interval = h.interval.map { String(format: " [%+.1f %%, %+.1f %%]", 100 * $0[0], 100 * $0[1]) } ?? ""
                out +=
                    "| \(h.status == .regression ? "**REGRESSION**" : h.status.rawValue) | \(h.workload) | \(h.scenario) / \(h.variant)\(factorText(h.factors)) | \(h.metric) | \(TextTable.number(h.baselineMedian)) | \(TextTable.number(h.currentMedian)) | \(medians) | \(change)\(interval) | \(h.why ?? "") |\n"
            }
        }
        return out
    }

    static func factorText(_ factors: [String: String]) -> String {
        factors.isEmpty ? "" : " (" + factors.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
    }
}
