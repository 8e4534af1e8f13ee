import CClockLoops
import Dispatch
import Foundation
import Records

/// What one clock read costs, in nanoseconds per call: the Swift API each source stands for,
/// measured beside a C `clock_gettime` loop on the same clock in the same process.
///
/// Each repetition times a loop of `iterations` reads with CLOCK_MONOTONIC around it; the Swift
/// and C loops alternate so both see the same machine state. Results are per repetition, so the
/// summaries give the median and spread.
public enum ReadCost {
    public struct Sample: Codable, Hashable, Sendable {
        public var source: ClockKind
        /// `read-swift-api` or `read-c-loop`.
        public var reader: String
        public var repetition: Int
        public var nanosecondsPerRead: Double
        /// For the Swift API: its cost over the C loop's in the same repetition. A ratio from one
        /// run is what the regression gate can compare across runs and machines; absolute
        /// nanoseconds are not.
        public var ratioToC: Double? = nil
    }

    /// The Swift API a program would use for each source.
    public static func apiName(_ kind: ClockKind) -> String {
        switch kind {
        case .date: "Date()"
        case .realtime: "clock_gettime(CLOCK_REALTIME) via SystemClock"
        case .monotonic: "SuspendingClock.now"
        case .monotonicRaw: "clock_gettime(CLOCK_MONOTONIC_RAW) via SystemClock"
        case .boottime: "MonotonicDate() (CLOCK_BOOTTIME, as ContinuousClock)"
        }
    }

    public static func measure(sources: [ClockKind], iterations: Int = 200_000, repetitions: Int = 7) -> [Sample] {
        var samples: [Sample] = []
        let mono = pb_clock_monotonic()
        for source in sources {
            _ = swiftLoop(source, iterations / 10)  // warm up
            for r in 0..<repetitions {
                let start = pb_clock_read_ns(mono)
                blackHole(swiftLoop(source, iterations))
                let swiftNs = Double(pb_clock_read_ns(mono) - start) / Double(iterations)
                let cNs = Double(pb_clock_gettime_loop(source.clockID, UInt64(iterations))) / Double(iterations)
                samples.append(
                    Sample(
                        source: source,
                        reader: "read-swift-api",
                        repetition: r,
                        nanosecondsPerRead: swiftNs,
                        ratioToC: cNs > 0 ? swiftNs / cNs : nil
                    )
                )
                samples.append(Sample(source: source, reader: "read-c-loop", repetition: r, nanosecondsPerRead: cNs))
            }
        }
        return samples
    }

    @inline(never)
    static func swiftLoop(_ source: ClockKind, _ n: Int) -> Int64 {
        var acc: Int64 = 0
        switch source {
        case .date:
            for _ in 0..<n { acc &+= Int64(Date().timeIntervalSinceReferenceDate) }
        case .realtime:
            let clock = SystemClock(.realtime)
            for _ in 0..<n { acc &+= clock.now() }
        case .monotonic:
            for _ in 0..<n { acc &+= withUnsafeBytes(of: SuspendingClock.now) { $0.load(as: Int64.self) } }
        case .monotonicRaw:
            let clock = SystemClock(.monotonicRaw)
            for _ in 0..<n { acc &+= clock.now() }
        case .boottime:
            for _ in 0..<n { acc &+= Int64(truncatingIfNeeded: MonotonicDate().rawValue) }
        }
        return acc
    }

    @inline(never)
    static func blackHole(_ x: Int64) {
        withExtendedLifetime(x) {}
    }

    public static func observations(_ sample: Sample) -> [Observation] {
        [Observation("read_cost_ns", sample.nanosecondsPerRead, "ns")]
            + (sample.ratioToC.map { [Observation("read_cost_ratio_to_c", $0, "ratio")] } ?? [])
    }
}
