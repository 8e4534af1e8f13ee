import Simulation

/// One applied update, for the per-update timeline (`--events`).
public struct UpdateRecord: Hashable, Sendable, Codable {
    /// When the update started on the main thread.
    public var time: SimInstant
    public var rows: Int
    public var reset: Bool
    public var cost: SimDuration
    /// How late the first frame showing this update reached the screen, compared with a frame
    /// that renders within its own vsync interval (0 = on time, 16.7 ms = one missed vsync at 60 Hz).
    public var frameLateness: SimDuration?
}
