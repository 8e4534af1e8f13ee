import Measurement
import TraceImport

extension ReadinessWorkload {
    /// The `--trace` launch, read and paired in full before any item runs, so that a damaged
    /// file stops the run (exit 65, one line) before anything is written.
    static func readLaunch(_ configuration: ReadinessConfiguration) throws -> IntervalEvents? {
        guard let path = configuration.tracePath else { return nil }
        do {
            return try read(path: path, process: configuration.traceProcess)
        } catch {
            throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
        }
    }

    private static func read(path: String, process: String?) throws(TraceImportError) -> IntervalEvents {
        let format = try TraceFormat.sniff(path: path)
        guard format != .csv else {
            throw TraceImportError(
                path: path,
                message: "is neither an xctrace export nor a Perfetto trace: a launch is read from signposted intervals"
            )
        }
        return try IntervalEvents(path: path, format: format, process: process)
    }

    /// The plan an item's launch runs: the recorded launch's blocks when `--trace` gave one,
    /// otherwise the profile's, drawn from the item's seed.
    func launchPlan(_ item: Item) -> LaunchPlan {
        let profile = profile(item.scenario.context!)
        if let recordedLaunch { return LaunchPlan.fromTrace(recordedLaunch, profile: profile, seed: item.seed) }
        return LaunchPlan.generate(profile, seed: item.seed)
    }
}
