import ArgumentParser
import Skeleton

/// bench-skeleton's own options, on top of the shared `CommonOptions`.
struct SkeletonOptions: ParsableArguments {
    @Option(name: .customLong("interval-ms"), help: ArgumentHelp("How long coalesce waits after a first request (ms).", valueName: "ms"))
    var intervalMs = 50

    @Option(name: .customLong("handler-cost-ms"), help: ArgumentHelp("How long one handler run takes (ms).", valueName: "ms"))
    var handlerCostMs = 5

    func validate() throws {
        guard (0...60_000).contains(intervalMs) else {
            throw ValidationError("--interval-ms must be between 0 and 60000, got \(intervalMs)")
        }
        guard (1...60_000).contains(handlerCostMs) else {
            throw ValidationError("--handler-cost-ms must be between 1 and 60000, got \(handlerCostMs)")
        }
    }

    var configuration: SkeletonConfiguration {
        var c = SkeletonConfiguration()
        c.intervalMs = intervalMs
        c.handlerCostMs = handlerCostMs
        return c
    }
}
