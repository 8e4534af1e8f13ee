import ArgumentParser
import BenchCommandLine
import Foundation
import Measurement
import Simulation
import Throttling

/// `bench-throttle`: message bursts through UI-update throttlers, latency to screen against jank.
struct BenchThrottle: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    func run() throws {
        if common.list {
            print(Catalog.listing())
            return
        }
        let plan = try RunPlan(common: common, options: options)
        switch options.mode {
        case .sim: try SimRunner(plan: plan).run()
        case .live: try LiveRunner(plan: plan).run()
        }
    }
}

BenchMain.run(BenchThrottle.self)
