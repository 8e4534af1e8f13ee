import ArgumentParser
import BenchCommandLine
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
        if options.mode == .live, !common.list {
            BenchMain.warnIfDebug("bench-throttle --mode live measures real time", quiet: common.quiet)
        }
        try WorkloadDriver.run(ThrottleWorkload.self, common: common) { environment in
            try ThrottleWorkload(configuration: options.configuration, selection: environment.selection,
                                 recordTimeline: environment.recordTimeline)
        }
    }
}

BenchMain.run(BenchThrottle.self)
