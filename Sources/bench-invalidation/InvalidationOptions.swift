import ArgumentParser
import BenchCommandLine
import Invalidation
import Records

/// bench-invalidation's own options, on top of the shared `CommonOptions`.
struct InvalidationOptions: ParsableArguments {
    @Option(help: "sim (virtual time, deterministic) or live (real processes, SQLite WAL, FIFO notifications).")
    var mode: RunMode = .sim

    @Option(
        help: ArgumentHelp("Override how long the plan runs, in seconds (live default: 6).", valueName: "s"),
        transform: decimalArgument
    )
    var duration: Double?

    @Option(
        name: .customLong("debounce-s"),
        help: "The main app's firstLast UI-refresh debounce (s). (default: 3.0)",
        transform: decimalArgument
    )
    var debounceS: Double = 3

    @Option(
        name: .customLong("delivery-jitter-ms"),
        help: "Sim: mean of the exponential part of the notification delivery delay (ms).",
        transform: decimalArgument
    )
    var deliveryJitterMs: Double?

    @Option(name: .customLong("cache-capacity"), help: "Entries of each process's model cache.")
    var cacheCapacity: Int?

    @Option(
        name: .customLong("live-dir"),
        help: ArgumentHelp("Live: keep each run's database, FIFOs and child logs under this folder.", valueName: "dir")
    )
    var liveDir: String?

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0 && duration <= 3600) {
            throw ValidationError("--duration must be a number of seconds in (0, 3600], got \(duration)")
        }
        if mode == .live, let duration, duration > 120 {
            throw ValidationError("--duration must be at most 120 s in --mode live, got \(duration)")
        }
        guard debounceS.isFinite, debounceS >= 0, debounceS <= 600 else {
            throw ValidationError("--debounce-s must be between 0 and 600, got \(debounceS)")
        }
        if let deliveryJitterMs, !(deliveryJitterMs.isFinite && deliveryJitterMs >= 0 && deliveryJitterMs <= 60_000) {
            throw ValidationError("--delivery-jitter-ms must be between 0 and 60000, got \(deliveryJitterMs)")
        }
        if let cacheCapacity, !(1...100_000).contains(cacheCapacity) {
            throw ValidationError("--cache-capacity must be between 1 and 100000, got \(cacheCapacity)")
        }
        if mode == .sim, liveDir != nil { throw ValidationError("--live-dir applies to --mode live only") }
        if mode == .live, deliveryJitterMs != nil {
            throw ValidationError(
                "--delivery-jitter-ms models the simulation's delivery; live deliveries are real (drop it or use --mode sim)"
            )
        }
    }

    var configuration: InvalidationConfiguration {
        var c = InvalidationConfiguration()
        c.mode = mode
        c.duration = duration
        c.debounceSeconds = debounceS
        c.deliveryJitterMs = deliveryJitterMs
        c.cacheCapacity = cacheCapacity
        c.liveDirectory = liveDir
        return c
    }
}
