import Foundation
import Measurement

extension GateCommand {
    /// `bench-gate --list-workloads [--json]`: the registry, for scripts, CI files and the analysis
    /// package (whose committed `workloads.json` is this JSON, checked by `WorkloadRegistryTests`).
    static func workloadListing(json: Bool) throws -> String {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(WorkloadRegistry.all), as: UTF8.self) + "\n"
        }
        let rows = WorkloadRegistry.all.map { w in
            [
                w.name, w.executable, w.module,
                w.factors.map { "\($0.name) (\($0.type.rawValue))" }.joined(separator: ", "),
                w.openToVariants ? "yes" : "no",
            ]
        }
        let header = ["workload", "executable", "module", "factors", "open to variants"]
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.indices.map { c in row[c].padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
