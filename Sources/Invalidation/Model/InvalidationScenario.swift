import Simulation

/// Who writes and reads how often, and when the main app is in the foreground.
///
/// Rates are Poisson; the main app reads and writes only while active (a user looking at it),
/// the notification extension writes one transaction per push at any time, and the share
/// extension runs short sessions that read from its own cache and end with one write.
public struct InvalidationScenario: Sendable {
    public var name: String
    public var summary: String
    public var duration: SimDuration
    /// Rows in the shared table; a fraction of accesses goes to the first `hotKeys` rows (the
    /// open conversation, its thread row).
    public var keys = 200
    public var hotKeys = 16
    public var hotFraction = 0.7
    /// Entries of the main app's model cache (Signal: thread 32, interaction 1024; scaled to the table).
    public var mainCacheCapacity = 64
    public var shareCacheCapacity = 64
    public var mainReadsPerSecond: Double
    public var mainWritesPerSecond: Double
    public var nsePushesPerSecond: Double
    public var shareSessionsPerSecond: Double
    public var shareSessionLength: SimDuration = .seconds(8)
    public var shareReadsPerSecond: Double = 10
    /// Rows per write transaction: uniform in 1...maxKeysPerWrite.
    public var maxKeysPerWrite = 3
    /// Foreground/background cycle of the main app; nil: active throughout.
    public var activeFor: SimDuration?
    public var inactiveFor: SimDuration?
    /// Post → handler on the receiver's main queue: fixed part plus an exponential part.
    public var deliveryBase: SimDuration = .microseconds(500)
    public var deliveryJitterMean: SimDuration = .milliseconds(4)

    public static let catalogue: [InvalidationScenario] = [
        InvalidationScenario(
            name: "foreground",
            summary: "app open and reading; occasional pushes and share sessions",
            duration: .seconds(60),
            mainReadsPerSecond: 50,
            mainWritesPerSecond: 0.5,
            nsePushesPerSecond: 0.3,
            shareSessionsPerSecond: 0.05
        ),
        InvalidationScenario(
            name: "background-pushes",
            summary: "app 10 s open / 20 s in background while pushes arrive at 1/s",
            duration: .seconds(60),
            mainReadsPerSecond: 50,
            mainWritesPerSecond: 0.5,
            nsePushesPerSecond: 1,
            shareSessionsPerSecond: 0.02,
            activeFor: .seconds(10),
            inactiveFor: .seconds(20)
        ),
        InvalidationScenario(
            name: "concurrent-writers",
            summary: "all three processes writing close together (sync, group import, share)",
            duration: .seconds(60),
            mainReadsPerSecond: 100,
            mainWritesPerSecond: 20,
            nsePushesPerSecond: 10,
            shareSessionsPerSecond: 0.1,
            shareReadsPerSecond: 20
        ),
    ]

    /// Whether the main app is active at `t` (cycles start active at 0).
    func isActive(at t: SimInstant) -> Bool {
        guard let activeFor, let inactiveFor else { return true }
        let period = (activeFor + inactiveFor).nanoseconds
        return t.nanoseconds % period < activeFor.nanoseconds
    }

    /// A copy scaled in time (for `--quick`).
    func scaled(by factor: Double) -> InvalidationScenario {
        var copy = self
        copy.duration = .seconds(duration.seconds * factor)
        return copy
    }
}
