import ArgumentParser
import Differential
import Foundation
import Measurement
import Records

/// The differential mode's flags, shared by every tool with virtual time: instead of measuring,
/// run two variants on random cases and compare what each observably did (docs/differential.md).
package struct DifferentialOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Compare two variants on random cases instead of measuring: exit 0 when they agree, 1 when one case diverged.",
            valueName: "A,B"
        )
    )
    var differential: String?

    @Option(help: ArgumentHelp("With --differential: how many random cases.", valueName: "N"))
    var cases: Int = 1_000

    @Option(
        name: .customLong("time-tolerance-ns"),
        help: ArgumentHelp("With --differential: slack allowed between two events' times.", valueName: "ns")
    )
    var timeToleranceNs: Int64 = 0

    @Option(
        name: .customLong("replay-case"),
        help: ArgumentHelp("Rerun the minimal case of a differential.json: exit 1 while it still diverges.", valueName: "file")
    )
    var replayCase: String?

    /// Set in the child process a differential run with a user's variant runs in (see `run`).
    @Flag(name: .customLong("differential-child"), help: .hidden)
    var isChild = false

    /// Whether the differential mode was asked for (then nothing is measured).
    package var isRequested: Bool { differential != nil || replayCase != nil }

    /// Runs the differential mode for `Case` with `registry`'s variants; exits 1 on a divergence.
    package func run<Case: DifferentialCase>(_ type: Case.Type, registry: VariantRegistry<Case.Variant>, common: CommonOptions) throws
    where Case.Variant: NamedVariant {
        let names = differential.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0) } }
        let request = DifferentialRequest(
            variants: names,
            cases: cases,
            seed: common.seed,
            toleranceNs: timeToleranceNs,
            replay: replayCase,
            output: common.output ?? ResultsFolder.defaultPath(runID: Self.runID(Case.workload))
        )
        let users = (names ?? []).filter { registry.named($0)?.info.origin == .user }
        let code =
            if !users.isEmpty, !isChild {
                // A user's variant may trap or hang anywhere: the comparison runs in a child, so
                // that its failure is one line and an exit code, never this process's crash.
                try DifferentialChild(timeout: common.itemTimeout).run(userVariants: users)
            } else {
                try DifferentialCommand.run(Case.self, registry: registry, request: request)
            }
        if code != 0 { throw ExitCode(code) }
    }

    /// `differential-<workload>-<UTC time>-<random hex>`: the default folder's name, made as a
    /// measuring run's is (the command layer reads the wall clock; the engine never does).
    static func runID(_ workload: String) -> String { RunOutput.makeRunID(workload: "differential-\(workload)") }
}
