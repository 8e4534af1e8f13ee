import Simulation

/// The simplified description of Signal's throttle that circulates in write-ups: the frame rate,
/// between 60 fps (light) and 20 fps (heavy), maps linearly to an interval of 50 ms … 500 ms.
///
/// The frame rate here is what the screen actually presented over the last second, so it is a
/// direct load signal rather than Signal's 20 fps display-link estimate.
public struct SignalBriefThrottler: UpdateThrottler {
    public static let lightFPS = 60.0
    public static let heavyFPS = 20.0
    public static let shortInterval = SimDuration.milliseconds(50)
    public static let longInterval = SimDuration.milliseconds(500)
    static let window = SimDuration.seconds(1)

    var presents = TimeWindow(length: window)
    var lastPublish: SimInstant?
    var timerArmed = false

    public init() {}

    /// Frames presented over the last second (assumed light until a full second has been seen).
    public func framesPerSecond(at now: SimInstant) -> Double {
        guard now.nanoseconds >= Self.window.nanoseconds else { return Self.lightFPS }
        return Double(presents.count(before: now))
    }

    public static func interval(forFPS fps: Double) -> SimDuration {
        let clamped = min(max(fps, heavyFPS), lightFPS)
        let heaviness = (lightFPS - clamped) / (lightFPS - heavyFPS)
        let ns = Double(shortInterval.nanoseconds) + Double((longInterval - shortInterval).nanoseconds) * heaviness
        return SimDuration(nanoseconds: Int64(ns.rounded()))
    }

    public mutating func framePresented(at time: SimInstant) {
        presents.record(time)
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision { attempt(context) }
    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        timerArmed = false
        return attempt(context)
    }

    mutating func attempt(_ context: ThrottleContext) -> ThrottleDecision {
        guard context.pendingCommits > 0 else { return .none }
        let interval = Self.interval(forFPS: framesPerSecond(at: context.now))
        if let last = lastPublish, context.now - last < interval {
            guard !timerArmed else { return .none }
            timerArmed = true
            return ThrottleDecision(timer: .fire(at: last + interval))
        }
        lastPublish = context.now
        timerArmed = false
        return ThrottleDecision(publish: .all, timer: .cancel)
    }
}
