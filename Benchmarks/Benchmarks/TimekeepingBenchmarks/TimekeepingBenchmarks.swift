// What one clock read costs: each real clock source as the timing clients read it, the Swift API
// each source stands for, and a simulated clock under a skew scenario (what sim mode pays per read).
import Benchmark
import BenchmarkDefaults
import Foundation
import MicroKernels
import Timekeeping

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkDefaults.configuration()

    // `SystemClock`: the `ClockSource` live mode hands to every client (clock_gettime through C,
    // `Date()` for `date`).
    for kind in ClockKind.allCases {
        Benchmark("SystemClock.now(\(kind.name))") { benchmark in
            let clock = SystemClock(kind)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(clock.now())
            }
        }
    }

    // The Swift APIs a program would call for each source (as in bench-clock's read costs).
    Benchmark("Date.init(date)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Date())
        }
    }
    Benchmark("SuspendingClock.now(monotonic)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(SuspendingClock.now)
        }
    }
    Benchmark("ContinuousClock.now(boottime)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ContinuousClock.now)
        }
    }
    Benchmark("MonotonicDate.init(boottime)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(MonotonicDate())
        }
    }

    // `SimulatedClock` under a slew, a step and a suspension: the segment lookup plus the reading's
    // arithmetic. Every iteration walks true time through the whole 800 s schedule in equal steps,
    // so every iteration reads the same mix of segments.
    for kind in ClockKind.allCases {
        Benchmark("SimulatedClock.now(\(kind.name))") { benchmark in
            let virtualNow = VirtualNow()
            let clock = SimulatedClock(kind, schedule: ClockFixtures.skewSchedule, now: virtualNow)
            let step = 800 * 1_000_000_000 / Int64(benchmark.scaledIterations.count)
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                virtualNow.trueTime = Int64(i) * step
                blackHole(clock.now())
            }
        }
    }
}
