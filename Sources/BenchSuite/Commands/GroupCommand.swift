import ArgumentParser
import BenchCommandLine
import FanOut
import Records

/// `bench-group`: fan-out and fan-in — the login flow of "Sequencing tasks with DispatchGroup" under
/// chained handlers, DispatchGroup notify and wait, Operation dependencies, async let, TaskGroup
/// and hedged requests.
package struct GroupCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-group",
        abstract: "Fan-out and fan-in: a login flow's concurrent calls, joined by handlers, DispatchGroup, Operations or tasks.",
        discussion: """
            With no arguments: every variant x every scenario x 5 seeds in virtual time (deterministic), writing \
            results/runs/<run-id>/group.csv and .json. --mode live runs the same flows on real Dispatch queues, \
            OperationQueues and Swift tasks with real sleeps, beside their simulation, and measures the cost \
            of one fan-out child (child-overhead).
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: GroupOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    package func run() throws {
        if differential.isRequested { return try differential.run(GroupCase.self, registry: Suite.current.fanOuts, common: common) }
        let timed = options.mode == .live ? "bench-group --mode live measures real time" : nil
        try WorkloadDriver.run(FanOutWorkload.self, configuration: options.configuration, common: common, debugWarning: timed)
    }
}

/// bench-group's own options, on top of the shared `CommonOptions`.
package struct GroupOptions: ParsableArguments {
    package init() {}

    @Option(help: "sim (virtual time, deterministic) or live (real Dispatch, OperationQueue and Swift tasks, real sleeps).")
    var mode: RunMode = .sim

    @Option(help: ArgumentHelp("Flows per item (sim default 300, 100 with --quick; live 60, 20 with --quick).", valueName: "n"))
    var flows: Int?

    @Option(
        name: .customLong("time-scale"),
        help: ArgumentHelp("Live: service latencies are the model's times this factor, 0.01-1 (default 0.1).", valueName: "x"),
        transform: decimalArgument
    )
    var timeScale: Double?

    @Option(help: ArgumentHelp("Live child-overhead: empty children per fan-out (default 1000; 200 with --quick).", valueName: "n"))
    var children: Int?

    package func validate() throws {
        if let timeScale, !timeScale.isFinite { throw ValidationError("--time-scale must be finite") }
    }

    var configuration: FanOutConfiguration {
        var c = FanOutConfiguration()
        c.mode = mode
        c.flows = flows
        c.timeScale = timeScale
        c.children = children
        return c
    }
}
