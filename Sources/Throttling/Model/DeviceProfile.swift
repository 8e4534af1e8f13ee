import Simulation

/// What work costs on a device: rendering a frame, handling a notification, applying an update.
///
/// Building an incremental update of n rows costs `a + b·n + g·n²` (diffing is superlinear), at
/// most `resetCost`. A
/// publish containing a commit that alone touched `resetThreshold` rows or more is a reset: the
/// view reloads without caches, a load costing `resetCost` built off the main thread. Landing a
/// built load on the main thread costs `landFixed + landPerRow·n`, or `landResetCost` for a
/// reset. The observer pipeline applies incremental updates on the main thread (build and apply,
/// `a + b·n + g·n²`); the conversation pipeline builds every load off main and only lands it on
/// main. The constants are model inputs, chosen to be plausible for a recent and an old phone;
/// they are reported with every run.
public struct DeviceProfile: Hashable, Sendable {
    public var name: String
    public var frameCost: SimDuration
    public var notificationCost: SimDuration
    public var tickCost: SimDuration
    public var updateFixed: SimDuration
    public var updatePerRowNs: Double
    public var updatePerRowSquaredNs: Double
    public var resetCost: SimDuration
    public var resetThreshold: Int
    public var landFixed: SimDuration
    public var landPerRowNs: Double
    public var landResetCost: SimDuration
    /// A frame takes `frameCost` plus up to this much more (a fixed pseudo-random amount per vsync).
    public var frameJitter: SimDuration

    /// Landing costs default to a quarter of the update's fixed cost, a tenth of its per-row cost
    /// and a fifth of the reset: configuring cells from a render state built elsewhere.
    public init(
        name: String,
        frameCost: SimDuration,
        notificationCost: SimDuration,
        tickCost: SimDuration,
        updateFixed: SimDuration,
        updatePerRowNs: Double,
        updatePerRowSquaredNs: Double,
        resetCost: SimDuration,
        resetThreshold: Int = 200,
        landFixed: SimDuration? = nil,
        landPerRowNs: Double? = nil,
        landResetCost: SimDuration? = nil,
        frameJitter: SimDuration = .zero
    ) {
        self.name = name
        self.frameCost = frameCost
        self.notificationCost = notificationCost
        self.tickCost = tickCost
        self.updateFixed = updateFixed
        self.updatePerRowNs = updatePerRowNs
        self.updatePerRowSquaredNs = updatePerRowSquaredNs
        self.resetCost = resetCost
        self.resetThreshold = resetThreshold
        self.landFixed = landFixed ?? SimDuration(nanoseconds: updateFixed.nanoseconds / 4)
        self.landPerRowNs = landPerRowNs ?? updatePerRowNs / 10
        self.landResetCost = landResetCost ?? SimDuration(nanoseconds: resetCost.nanoseconds / 5)
        self.frameJitter = frameJitter
    }

    /// Whether one commit (transaction) of `rows` rows is too large for an incremental update.
    @inline(__always) public func isReset(commitRows rows: Int) -> Bool { rows >= resetThreshold }

    /// Cost of building (and, in the observer pipeline, applying) an update of `rows` rows, or of
    /// a reset's reload, before background-load scaling.
    ///
    /// An incremental update is capped at `resetCost`: a diff never costs more than reloading the
    /// whole view without caches (the view shows a bounded window of messages, so ids beyond it
    /// cost nothing). Without the cap the quadratic term, fitted for batches below 200 rows, would
    /// charge seconds for the thousands of rows a storm merges into one publish. The cap does not
    /// make the update a reset: resets are per transaction.
    public func updateCost(rows: Int, reset: Bool = false) -> SimDuration {
        if reset { return resetCost }
        let n = Double(rows)
        let ns = Double(updateFixed.nanoseconds) + updatePerRowNs * n + updatePerRowSquaredNs * n * n
        return min(SimDuration(nanoseconds: Int64(ns.rounded())), resetCost)
    }

    /// Main-thread cost of landing a load built off the main thread, before load scaling; like
    /// the build, never more than landing a reload of the whole view.
    public func landCost(rows: Int, reset: Bool) -> SimDuration {
        if reset { return landResetCost }
        return min(landFixed + SimDuration(nanoseconds: Int64((landPerRowNs * Double(rows)).rounded())), landResetCost)
    }

    /// The built-in devices, one row each; every one has 0.5 ms of frame jitter and the default
    /// landing costs.
    public static let all: [DeviceProfile] = [
        builtIn("fast", frameMs: 5, notificationUs: 50, tickUs: 20, updateMs: 4, perRowNs: 150_000, perRowSquaredNs: 500, resetMs: 30),
        builtIn("mid", frameMs: 7, notificationUs: 100, tickUs: 35, updateMs: 6, perRowNs: 300_000, perRowSquaredNs: 800, resetMs: 50),
        builtIn("slow", frameMs: 10, notificationUs: 150, tickUs: 50, updateMs: 10, perRowNs: 500_000, perRowSquaredNs: 1_000, resetMs: 90),
    ]
    public static let fast = all[0]
    public static let mid = all[1]
    public static let slow = all[2]

    private static func builtIn(
        _ name: String,
        frameMs: Int,
        notificationUs: Int,
        tickUs: Int,
        updateMs: Int,
        perRowNs: Double,
        perRowSquaredNs: Double,
        resetMs: Int
    ) -> DeviceProfile {
        DeviceProfile(
            name: name,
            frameCost: .milliseconds(frameMs),
            notificationCost: .microseconds(notificationUs),
            tickCost: .microseconds(tickUs),
            updateFixed: .milliseconds(updateMs),
            updatePerRowNs: perRowNs,
            updatePerRowSquaredNs: perRowSquaredNs,
            resetCost: .milliseconds(resetMs),
            frameJitter: .microseconds(500)
        )
    }
}
