import Simulation

/// What work costs on a device: rendering a frame, handling a notification, applying an update.
///
/// An incremental update of n rows costs `a + b·n + g·n²` (diffing is superlinear); an update of
/// `resetThreshold` rows or more is applied as a full reload costing `resetCost`, whatever its
/// size. The constants are model inputs, chosen to be plausible for a recent and an old phone;
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

    public init(name: String, frameCost: SimDuration, notificationCost: SimDuration, tickCost: SimDuration,
                updateFixed: SimDuration, updatePerRowNs: Double, updatePerRowSquaredNs: Double,
                resetCost: SimDuration, resetThreshold: Int = 200) {
        self.name = name
        self.frameCost = frameCost
        self.notificationCost = notificationCost
        self.tickCost = tickCost
        self.updateFixed = updateFixed
        self.updatePerRowNs = updatePerRowNs
        self.updatePerRowSquaredNs = updatePerRowSquaredNs
        self.resetCost = resetCost
        self.resetThreshold = resetThreshold
    }

    /// Main-thread cost of applying `rows` rows, before background-load scaling.
    public func updateCost(rows: Int) -> (cost: SimDuration, reset: Bool) {
        if rows >= resetThreshold { return (resetCost, true) }
        let n = Double(rows)
        let ns = Double(updateFixed.nanoseconds) + updatePerRowNs * n + updatePerRowSquaredNs * n * n
        return (SimDuration(nanoseconds: Int64(ns.rounded())), false)
    }

    public static let fast = DeviceProfile(
        name: "fast", frameCost: .milliseconds(5), notificationCost: .microseconds(50),
        tickCost: .microseconds(20), updateFixed: .milliseconds(4), updatePerRowNs: 150_000,
        updatePerRowSquaredNs: 500, resetCost: .milliseconds(30)
    )
    public static let mid = DeviceProfile(
        name: "mid", frameCost: .milliseconds(7), notificationCost: .microseconds(100),
        tickCost: .microseconds(35), updateFixed: .milliseconds(6), updatePerRowNs: 300_000,
        updatePerRowSquaredNs: 800, resetCost: .milliseconds(50)
    )
    public static let slow = DeviceProfile(
        name: "slow", frameCost: .milliseconds(10), notificationCost: .microseconds(150),
        tickCost: .microseconds(50), updateFixed: .milliseconds(10), updatePerRowNs: 500_000,
        updatePerRowSquaredNs: 1_000, resetCost: .milliseconds(90)
    )
    public static let all = [fast, mid, slow]
}
