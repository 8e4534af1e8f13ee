import Records

/// bench-group's own settings, on top of the shared matrix selection.
public struct FanOutConfiguration: Sendable {
    public typealias Mode = RunMode
    public var mode: Mode = .sim
    /// Flows per item (default 300 in sim, 100 with --quick; live 60, 20 with --quick).
    public var flows: Int?
    /// Live: service latencies are the model's times this factor (default 0.1: a 120 ms median
    /// answers in 12 ms), so that real sleeps keep a live matrix short.
    public var timeScale: Double?
    /// Live child-overhead scenario: children per fan-out (default 1000).
    public var children: Int?
    public init() {}
}
