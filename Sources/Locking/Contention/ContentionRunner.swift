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

    /// The unmeasured warm-up run (nothing when `settings.warmup` is 0).
    package func warmUp(_ cell: ContentionCell, variant: LockVariant, seed: UInt64) throws(Failure) {
        guard settings.warmup > 0 else { return }
        _ = try run(cell, variant: variant, seed: seed, seconds: settings.warmup)
    }

    /// One measured repetition, preceded by the co-scheduling probe.
    package func measure(_ cell: ContentionCell, variant: LockVariant, seed: UInt64) throws(Failure) -> ContentionSample {
        var probe: CoSchedulingResult?
        if settings.probeDuration > 0 {
            probe = try? CoSchedulingProbe(clock: clock, pinning: settings.pinning, cpuCount: settings.cpuCount)
                .run(seconds: settings.probeDuration)
        }
        var sample = try run(cell, variant: variant, seed: seed, seconds: settings.duration, sampling: settings.sampling)
        sample.coScheduledFraction = probe?.fraction
        return sample
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

    func run(
        _ cell: ContentionCell,
        variant: LockVariant,
        seed: UInt64,
        seconds: Double,
        sampling: LockSampling? = nil
    ) throws(Failure) -> ContentionSample {
        let visitor = Visit(runner: self, cell: cell, seed: seed, seconds: seconds, sampling: sampling)
        guard let result = variant.withTarget(cell.operation, threads: cell.threads, visitor) else {
            throw .unsupported(cell.operation, variant)
        }
        return try result.get()
    }

    struct Visit: ContentionTargetVisitor {
        var runner: ContentionRunner
        var cell: ContentionCell
        var seed: UInt64
        var seconds: Double
        var sampling: LockSampling?

        func visit<Target: ContentionTarget>(_ target: Target) -> Result<ContentionSample, Failure> {
            do { return .success(try runner.run(cell, target: target, seed: seed, seconds: seconds, sampling: sampling)) } catch {
                return .failure(error)
            }
        }
    }

    /// The measurement proper, specialised for one concrete target type.
    func run<Target: ContentionTarget>(
        _ cell: ContentionCell,
        target: Target,
        seed: UInt64,
        seconds: Double,
        sampling: LockSampling? = nil
    ) throws(Failure) -> ContentionSample {
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
                    requestsBefore = jemalloc?.processAllocationRequests() ?? 0
                    line.release()
                    clock.sleep(nanoseconds: UInt64(seconds * 1e9))
                    line.signalStop()
                }
            ) { index in
                var state = WorkerState(seed: seed, thread: index, csIterations: cs, gapIterations: gap)
                var report = WorkerReport()
                line.arriveAndWait()
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
