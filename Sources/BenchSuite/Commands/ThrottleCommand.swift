import ArgumentParser
import BenchCommandLine
import Throttling

/// `bench-throttle`: message bursts through UI-update throttlers, latency to screen against jank.
package struct ThrottleCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-throttle",
        abstract: "Message bursts through UI-update throttlers: latency to screen against dropped frames.",
        discussion: """
            With no arguments: every policy x every scenario x 3 seeds in virtual time (deterministic), \
            writing results/runs/<run-id>/throttle.csv and .json. --mode live replays the same scenarios \
            on real threads and clocks and reports live beside simulated values.
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: ThrottleOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    package func run() throws {
        if differential.isRequested { return try differential.run(ThrottleCase.self, registry: Suite.current.throttlers, common: common) }
        let timed = options.mode == .live ? "bench-throttle --mode live measures real time" : nil
        try WorkloadDriver.run(ThrottleWorkload.self, configuration: options.configuration, common: common, debugWarning: timed)
    }
}
