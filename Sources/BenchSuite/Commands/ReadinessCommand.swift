import ArgumentParser
import BenchCommandLine
import Foundation
import Measurement
import Readiness

/// `bench-readiness`: launch coordination — Signal's AppReadiness against the article's, a
/// stampede, an orchestrator and a frame-aware scheduler, on one main executor.
package struct ReadinessCommand: ParsableCommand {
    package init() {}

    /// The hidden role flag: `bench-readiness --readiness-probe <probe> <implementation>` runs one
    /// re-entry probe and exits (the live harness starts it as a child process).
    package static let probeFlag = "--readiness-probe"

    /// Runs a re-entry probe and exits when this process was started as one (the live harness
    /// re-executes the binary with `probeFlag` first); returns otherwise. The probe's variant is
    /// looked up in `Suite.current.coordinators`: call this after installing the suite, as
    /// `SuiteMain.run` does, so that a user's executable finds its own variants.
    package static func runProbeChildIfAsked() {
        if CommandLine.arguments.dropFirst().first == probeFlag {
            Foundation.exit(ReadinessProbe.runChild(Array(CommandLine.arguments.dropFirst(2)), variants: Suite.current.coordinators))
        }
    }

    package static let configuration = CommandConfiguration(
        commandName: "bench-readiness",
        abstract: "Launch coordination: readiness blocks, frames and input on one main executor.",
        discussion: """
            With no arguments: every variant x main-app, nse, share-extension x every --globals x 5 seeds in \
            virtual time (deterministic), writing results/runs/<run-id>/readiness.csv and .json. --mode live runs \
            the main-app launch on real threads beside its simulation, the re-entry probes in child processes \
            (reentrant-tasks) and the registry race (concurrent-first-use).
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: ReadinessOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    package func run() throws {
        if differential.isRequested {
            return try differential.run(ReadinessCase.self, registry: Suite.current.coordinators, common: common)
        }
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let timed = options.mode == .live ? "bench-readiness --mode live measures real time" : nil
        try WorkloadDriver.run(
            ReadinessWorkload.self,
            configuration: options.configuration(child: [executable, Self.probeFlag]),
            common: common,
            debugWarning: timed
        )
    }
}
