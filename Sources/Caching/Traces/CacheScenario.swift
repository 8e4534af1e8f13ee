import Simulation

/// A named trace: its shape, the Signal cache it exercises (the default size and NSE size), when
/// lifecycle events happen, and how fast reads arrive.
public struct CacheScenario: Sendable {
    public var name: String
    public var summary: String
    public var shape: TraceShape?
    public var profile: CacheProfile
    /// Events at a fraction of the trace (0.5: halfway).
    public var events: [(fraction: Double, event: LifecycleEvent)]
    public var interval: SimDuration

    public static let catalogue: [CacheScenario] = [
        CacheScenario(
            name: "zipf-0.6",
            summary: "independent reads, Zipf 0.6 over 20000 keys (flat)",
            shape: .zipf(skew: 0.6, keys: 20_000),
            profile: .avatar,
            events: [],
            interval: .milliseconds(5)
        ),
        CacheScenario(
            name: "zipf-0.9",
            summary: "independent reads, Zipf 0.9 over 20000 keys",
            shape: .zipf(skew: 0.9, keys: 20_000),
            profile: .avatar,
            events: [],
            interval: .milliseconds(5)
        ),
        CacheScenario(
            name: "zipf-1.2",
            summary: "independent reads, Zipf 1.2 over 20000 keys (steep)",
            shape: .zipf(skew: 1.2, keys: 20_000),
            profile: .avatar,
            events: [],
            interval: .milliseconds(5)
        ),
        CacheScenario(
            name: "chat-scroll",
            summary: "chat list: recency-skewed opens, a 300-row scroll every 2000 reads; background halfway",
            shape: .chatScroll(threads: 3000, scanEvery: 2000, scanDepth: 300),
            profile: .thread,
            events: [(0.5, .background)],
            interval: .milliseconds(10)
        ),
        CacheScenario(
            name: "interaction-lookup",
            summary: "conversation view: a scrolling 25-row window over 200 chats; memory warning halfway",
            shape: .interactionLookup(conversations: 200),
            profile: .interaction,
            events: [(0.5, .memoryWarning)],
            interval: .milliseconds(4)
        ),
        CacheScenario(
            name: "scan-resistant",
            summary: "a 400-key hot set (70 %) mixed with a one-time sequential scan (30 %)",
            shape: .scanMix(hot: 400),
            profile: .text,
            events: [],
            interval: .milliseconds(5)
        ),
        CacheScenario(
            name: "launch-rewarm",
            summary: "Zipf 0.9 over 20000 keys; background clear halfway, then the re-warm",
            shape: .zipf(skew: 0.9, keys: 20_000),
            profile: .interaction,
            events: [(0.5, .background)],
            interval: .milliseconds(5)
        ),
    ]

    /// The trace of this scenario for `seed`, `count` reads long.
    func trace(count: Int, seed: UInt64, zipf: (Int, Double) -> ZipfSampler) -> AccessTrace {
        let keys = shape?.generate(count: count, seed: seed, zipf: zipf) ?? []
        let placed = events.map { (index: Int(Double(count) * $0.fraction), event: $0.event) }
        return AccessTrace(keys: keys, events: placed, interval: interval)
    }
}
