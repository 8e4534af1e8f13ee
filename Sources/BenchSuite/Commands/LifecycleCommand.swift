import ArgumentParser
import BenchCommandLine
import Foundation
import Lifecycle
import Measurement

/// `bench-lifecycle`: the app lifecycle under iOS's rules — state lost or torn at kills, watchdog
/// terminations, background-task expirations, refresh success, launch and resume times — for the
/// naive app, the article's orchestrator, Signal and ours; live, a real child process killed
/// inside its saves on real storage.
package struct LifecycleCommand: ParsableCommand {
    package init() {}

    /// Runs the live app child and exits when this process was started as one (the harness
    /// re-executes the binary with the child flag first); returns otherwise.
    package static func runChildIfAsked() { LifecycleChild.runIfAsked() }

    package static let configuration = CommandConfiguration(
        commandName: "bench-lifecycle",
        abstract: "App lifecycle under iOS's rules: lost and torn state, watchdog kills, background-task expiry.",
        discussion: """
            With no arguments: every variant x everyday, memory-pressure, scene-thrash, slow-device x 3 seeds x 200 \
            sessions in virtual time (deterministic), writing results/runs/<run-id>/lifecycle.csv and .json. --trace FILE \
            replays a file of '<time_ms> <transition>' lines. --mode live adds kill-during-save: a real child process \
            saving with each durability strategy, SIGSTOPped and SIGKILLed at random instants, relaunched to verify.
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: LifecycleOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    package func run() throws {
        if differential.isRequested {
            return try differential.run(LifecycleCase.self, registry: Suite.current.lifecycleStrategies, common: common)
        }
        let registry = Suite.current.lifecycleStrategies
        let executable = Self.executablePath
        let timed = options.mode == .live ? "bench-lifecycle --mode live measures real processes" : nil
        try WorkloadDriver.run(
            LifecycleWorkload.self,
            common: common,
            debugWarning: timed,
            catalogue: LifecycleWorkload.catalogue(variants: registry),
            variants: registry
        ) {
            try LifecycleWorkload(configuration: options.configuration(child: [executable]), environment: $0)
        }
    }

    static var executablePath: String {
        if let path = Bundle.main.executablePath { return path }
        let argv0 = CommandLine.arguments[0]
        guard argv0.contains("/"), !argv0.hasPrefix("/") else { return argv0 }
        return FileManager.default.currentDirectoryPath + "/" + argv0
    }
}
