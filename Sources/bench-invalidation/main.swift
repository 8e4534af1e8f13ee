import ArgumentParser
import BenchCommandLine
import Foundation
import Invalidation
import Measurement

/// `bench-invalidation`: cross-process cache invalidation — Signal's designs against a change log.
struct BenchInvalidation: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-invalidation",
        abstract: "Cross-process cache invalidation: stale reads, missed invalidations and their cost.",
        discussion: """
            With no arguments: every variant x every scenario x 3 seeds in virtual time (deterministic), \
            writing results/runs/<run-id>/invalidation.csv and .json. --mode live runs the main app and \
            both extensions as real processes on a real SQLite database (WAL) and compares with the simulation.
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions
    @OptionGroup var options: InvalidationOptions

    func run() throws {
        if differential.isRequested {
            return try differential.run(
                InvalidationCase.self,
                registry: VariantRegistry(builtIn: InvalidationVariant.builtIn),
                common: common
            )
        }
        var configuration = options.configuration
        // The harness starts this same binary in child roles; it is told how, not where to look.
        configuration.childCommand = [Self.executablePath]
        let timed = options.mode == .live ? "bench-invalidation --mode live measures real time" : nil
        try WorkloadDriver.run(InvalidationWorkload.self, common: common, debugWarning: timed) {
            try InvalidationWorkload(configuration: configuration, environment: $0)
        }
    }

    static var executablePath: String {
        let argv0 = CommandLine.arguments[0]
        guard argv0.contains("/"), !argv0.hasPrefix("/") else { return argv0 }
        return FileManager.default.currentDirectoryPath + "/" + argv0
    }
}

// A child role of a live run (hidden: only the harness passes it).
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == LiveInvalidationRun.childFlag {
    exit(InvalidationChild.main(directory: arguments[2], role: arguments[3]))
}
BenchMain.run(BenchInvalidation.self)
