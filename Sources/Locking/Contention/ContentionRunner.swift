import CLockShim
import Measurement
import Simulation

/// Runs one (cell, variant) for a fixed duration on real threads and returns what it measured.
///
/// Each repetition: optionally a co-scheduling probe; then `threads` fresh workers line up at a
/// start barrier, each reads its own clock, resource usage and allocation counter once, runs
/// batches of operations until the coordinator raises the stop flag, and reads them all again.
/// Clock reads are per thread per run, never per operation.
///
/// Not generic over the clock on purpose: a generic runner would be compiled unspecialised in
/// this module (its callers live in another), and with it every worker loop; the clock is an
/// existential read twice per thread per run, which costs nothing measurable.
package struct ContentionRunner: Sendable {
    package var clock: any MonotonicClock
    package var calibration: SpinCalibration
    package var settings: ContentionSettings
    /// jemalloc's counters when it is the allocator; nil leaves allocations uncounted.
    package var jemalloc: JemallocCounters?

    package init(clock: any MonotonicClock, calibration: SpinCalibration, settings: ContentionSettings, jemalloc: JemallocCounters? = nil) {
        self.clock = clock
        self.calibration = calibration
        self.settings = settings
        self.jemalloc = jemalloc
    }

    package enum Failure: Error, CustomStringConvertible {
        case unsupported(ContentionOperation, LockVariant)
        case threads(ThreadTeam.StartError)

        package var description: String {
            switch self {
            case .unsupported(let op, let v): "variant '\(v.name)' cannot run scenario '\(op.name)'"
            case .threads(let e): e.description
            }
        }
    }

    /// The co-scheduling probe (nil when `settings.probeDuration` is 0 or the probe cannot start).
    ///
    /// bench-atomics runs it once per round (repetition *i* of every variant in a cell), not before
    /// every repetition: a round's repetitions follow one another within a second, and a probe of
    /// its own per repetition cost a thread pair's start-up each.
    package func probe() -> CoSchedulingResult? {
        guard settings.probeDuration > 0 else { return nil }
        return try? CoSchedulingProbe(clock: clock, pinning: settings.pinning, cpuCount: settings.cpuCount)
            .run(seconds: settings.probeDuration)
    }

    /// One measured repetition, preceded by its own co-scheduling probe.
    package func measure(_ cell: ContentionCell, variant: LockVariant, seed: UInt64) throws(Failure) -> ContentionSample {
        let probe = probe()
        var sample = try measure(cell, variant: variant, seed: seed, warmup: 0)
        sample.coScheduledFraction = probe?.fraction
        return sample
    }

    /// One measured repetition without a probe. With `warmup` > 0 the same threads first run the
    /// operation unmeasured for that long, then read their clocks and counters and measure: the
    /// warm-up of a (cell, variant) rides on its first repetition instead of starting its own
    /// threads (at load 12 a thread team's start and join cost tens of milliseconds).
    package func measure(_ cell: ContentionCell, variant: LockVariant, seed: UInt64, warmup: Double) throws(Failure) -> ContentionSample {
        let visitor = Visit(runner: self, cell: cell, seed: seed, warmup: warmup)
        guard let result = variant.withTarget(cell.operation, threads: cell.threads, visitor) else {
            throw .unsupported(cell.operation, variant)
        }
        return try result.get()
    }

    struct WorkerReport {
        var operations: UInt64 = 0
        var tally: Int64 = 0
        var start: UInt64 = 0
        var end: UInt64 = 0
        var usageStart = lks_thread_usage()
        var usageEnd = lks_thread_usage()
        var allocatedBytes: UInt64 = 0
        var samples: [LockSample] = []
    }

    /// One repetition waiting for the variant's concrete target type.
    struct Visit: ContentionTargetVisitor {
        var runner: ContentionRunner
        var cell: ContentionCell
        var seed: UInt64
        var warmup: Double

        func visit<Target: ContentionTarget>(_ target: Target) -> Result<ContentionSample, Failure> {
            do {
                return .success(try runner.run(cell, target: target, seed: seed, warmup: warmup))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The measurement proper, specialised for one concrete target type.
    /// It runs for `settings.duration` seconds, sampling per `settings.sampling`.
    func run<Target: ContentionTarget>(
        _ cell: ContentionCell,
        target: Target,
        seed: UInt64,
        warmup: Double
    ) throws(Failure) -> ContentionSample {
        let seconds = settings.duration
        let sampling = settings.sampling
        let line = StartLine()
        let board = WorkerBoard(count: cell.threads, initial: WorkerReport())
        let cs = calibration.iterations(for: cell.csWork)
        let gap = calibration.iterations(for: cell.gapWork)
        let batch = settings.batch
        let clock = self.clock
        let jemalloc = self.jemalloc
        var requestsBefore: UInt64 = 0
        var requestsAfter: UInt64 = 0
        let pinFailures: Int
        do {
            pinFailures = try ThreadTeam.run(
                count: cell.threads,
                pinning: settings.pinning,
                cpuCount: settings.cpuCount,
                coordinator: { started in
                    line.waitForArrivals(started)
                    if warmup > 0 {
                        line.release()
                        clock.sleep(nanoseconds: UInt64(warmup * 1e9))
                        requestsBefore = jemalloc?.processAllocationRequests() ?? 0
                        line.startMeasuring()
                    } else {
                        requestsBefore = jemalloc?.processAllocationRequests() ?? 0
                        line.release()
                    }
                    clock.sleep(nanoseconds: UInt64(seconds * 1e9))
                    line.signalStop()
                }
            ) { index in
                var state = WorkerState(seed: seed, thread: index, csIterations: cs, gapIterations: gap)
                var report = WorkerReport()
                line.arriveAndWait()
                if warmup > 0 {  // unmeasured: the tally counts these operations, as the shared value does
                    repeat { target.perform(batch, &state) } while !line.isMeasuring
                }
                _ = lks_current_thread_usage(&report.usageStart)
                let bytesBefore = jemalloc?.threadAllocatedBytes() ?? 0
                report.start = clock.nanoseconds()
                var operations: UInt64 = 0
                if let sampling {
                    report.samples.reserveCapacity(sampling.limit)
                    operations = Self.sampledLoop(target, &state, batch: batch, sampling: sampling, line: line, clock: clock) {
                        report.samples.append($0)
                    }
                } else {
                    repeat {
                        target.perform(batch, &state)
                        operations &+= UInt64(batch)
                    } while !line.shouldStop
                }
                report.end = clock.nanoseconds()
                _ = lks_current_thread_usage(&report.usageEnd)
                if let jemalloc {
                    report.allocatedBytes = jemalloc.threadAllocatedBytes() &- bytesBefore
                    jemalloc.flushThreadCache()
                }
                report.operations = operations
                report.tally = state.tally
                board.write(report, at: index)
            }
        } catch {
            throw .threads(error)
        }
        requestsAfter = jemalloc?.processAllocationRequests() ?? 0
        let reports = board.all
        let start = reports.map(\.start).min() ?? 0
        let end = reports.map(\.end).max() ?? 0
        var sample = ContentionSample(
            threadOperations: reports.map(\.operations),
            elapsedNanoseconds: end &- start,
            expectedTotal: reports.reduce(0) { $0 &+ $1.tally },
            observedTotal: target.observedTotal(),
            voluntarySwitches: reports.reduce(0) { $0 &+ ($1.usageEnd.voluntary_switches &- $1.usageStart.voluntary_switches) },
            involuntarySwitches: reports.reduce(0) { $0 &+ ($1.usageEnd.involuntary_switches &- $1.usageStart.involuntary_switches) },
            cpuNanoseconds: reports.reduce(0) {
                $0 &+ ($1.usageEnd.user_ns &+ $1.usageEnd.system_ns) &- ($1.usageStart.user_ns &+ $1.usageStart.system_ns)
            },
            allocatedBytes: jemalloc == nil ? nil : reports.reduce(0) { $0 &+ $1.allocatedBytes },
            allocationRequests: jemalloc == nil ? nil : requestsAfter &- requestsBefore,
            pinFailures: pinFailures
        )
        if sampling != nil {
            sample.lockSamples = reports.map(\.samples)
            sample.traceOrigin = start
        }
        return sample
    }
}
