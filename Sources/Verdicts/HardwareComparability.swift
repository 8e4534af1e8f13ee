import Records

/// Decides, per workload, whether hardware numbers may be compared with their reference at all.
///
/// Same-run ratios are portable across hosts of one CPU identity only (see `CPUIdentity`): a
/// committed baseline recorded on another CPU, or one that does not say which CPU it came from,
/// would turn a runner change into "regressions" and "improvements". Such workloads are *not
/// comparable*: listed, never gated. An A/B base measured in the same job is the same host by
/// construction; only two known, different fingerprints (which would mean the job moved) make it
/// not comparable, and a base built before fingerprints existed is accepted with a note.
public enum HardwareComparability {
    public struct Outcome: Sendable {
        public var notComparable: Set<String>
        public var notes: [String]
    }

    public static func check(
        current: [RunDocument],
        reference: [RunDocument],
        workloads: Set<String>,
        referenceName: String,
        sameJob: Bool
    ) -> Outcome {
        var notComparable: Set<String> = []
        var reasons: [String: [String]] = [:]  // reason -> workloads, so each reason is one line
        var notes: [String] = []
        for workload in workloads.sorted() {
            let cur = current.filter { $0.workload == workload && $0.records.contains { $0.mode == "live" } }
            let ref = reference.filter { $0.workload == workload && $0.records.contains { $0.mode == "live" } }
            guard !cur.isEmpty, !ref.isEmpty else { continue }
            let curPrints = Set(cur.map(\.metadata.host.fingerprint)), refPrints = Set(ref.map(\.metadata.host.fingerprint))
            let here = describe(curPrints), there = describe(refPrints)
            if sameJob {
                if refPrints.contains(nil) {
                    notes.append(
                        "\(workload): the \(referenceName) does not record its CPU (built before fingerprints); same job, taken as this host"
                    )
                    if curPrints.count > 1 {
                        notComparable.insert(workload)
                        reasons["these results come from several CPUs (\(here))", default: []].append(workload)
                    }
                } else if curPrints.union(refPrints).count > 1 {
                    notComparable.insert(workload)
                    reasons["the \(referenceName) ran on \(there), these results on \(here)", default: []].append(workload)
                }
                continue
            }
            if curPrints.contains(nil) || refPrints.contains(nil) || curPrints.union(refPrints).count > 1 {
                notComparable.insert(workload)
                reasons["the \(referenceName) was measured on \(there), these results on \(here)", default: []].append(workload)
            }
        }
        for (reason, names) in reasons.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "Hardware metrics of \(names.joined(separator: ", ")) not comparable: \(reason). Neither regression nor improvement; deterministic metrics are still compared."
            )
        }
        return Outcome(notComparable: notComparable, notes: notes)
    }

    static func describe(_ prints: Set<CPUIdentity?>) -> String {
        let known = prints.compactMap { $0 }.map(\.description).sorted()
        var parts = known
        if prints.contains(nil) { parts.append("a CPU the document does not identify (recorded before fingerprints)") }
        return parts.joined(separator: " and ")
    }
}
