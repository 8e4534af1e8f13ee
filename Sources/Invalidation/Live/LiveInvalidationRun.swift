import Foundation
import Measurement
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One variant through one plan with REAL processes: the harness creates a SQLite database in WAL
/// mode and the notification FIFOs, starts the main app, the notification extension and the
/// share extension as children (`childCommand` + the role arguments), waits for them within a hard
/// deadline, always reaps them — on success, failure and timeout — and returns the main app's
/// tally with the share extension's stale reads.
public struct LiveInvalidationRun {
    /// The hidden argument that turns a bench-invalidation process into a child role.
    public static let childFlag = "--invalidation-child"

    let variant: InvalidationVariant
    let plan: InvalidationPlan
    let debounceInterval: SimDuration
    let childCommand: [String]
    /// The folder for this item's database, FIFOs and child logs, kept afterwards (nil: a
    /// temporary folder, removed afterwards).
    let directory: String?
    /// Time past the plan's end (and the debounce) before the harness gives up on the children.
    let grace: SimDuration

    public init(
        variant: InvalidationVariant,
        plan: InvalidationPlan,
        debounceInterval: SimDuration,
        childCommand: [String],
        directory: String? = nil,
        grace: SimDuration = .seconds(10)
    ) {
        self.variant = variant
        self.plan = plan
        self.debounceInterval = debounceInterval
        self.childCommand = childCommand
        self.directory = directory
        self.grace = grace
    }

    public func run() throws -> InvalidationTally {
        guard !childCommand.isEmpty else { throw BenchFailure.usage("live mode needs a child command") }
        let dir: String
        var temporary = false
        if let directory {
            dir = directory
        } else {
            dir =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "patternbench-invalidation-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                ).path
            temporary = true
        }
        try? FileManager.default.removeItem(atPath: dir)
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw BenchFailure.output("--live-dir: cannot create \(dir): \(error.localizedDescription)")
        }
        defer { if temporary { try? FileManager.default.removeItem(atPath: dir) } }

        try LiveDatabase.create(path: LiveRunSpec.databasePath(dir), keys: plan.keys)
        var spec = LiveRunSpec(
            variant: variant,
            plan: plan,
            debounceNs: debounceInterval.nanoseconds,
            lifetime: ChildLifetime(startRawNs: 0, deadlineRawNs: 0, parentPid: getpid())
        )
        for name in spec.mainChannels() {
            let path = NotificationPoster.fifoPath(directory: dir, listener: .main, name: name)
            guard mkfifo(path, 0o600) == 0 else {
                throw BenchFailure.output("cannot create FIFO \(path): \(String(cString: strerror(errno)))")
            }
        }
        // Children start ~0.5 s after spawning, together, on the shared monotonic clock.
        spec.lifetime = .starting(afterNs: 500_000_000, lastingNs: plan.durationNs + debounceInterval.nanoseconds + grace.nanoseconds)
        try JSONEncoder().encode(spec).write(to: URL(fileURLWithPath: LiveRunSpec.path(dir)))

        var children: [ChildProcess] = []
        var statuses: [pid_t: ExitStatus] = [:]
        // Whatever happens below, no child outlives this function.
        defer { for c in children where statuses[c.pid] == nil { c.killAndReap() } }
        for role in [ProcessRole.main, .nse, .share] {
            children.append(
                try ChildProcess.spawn(
                    role: role,
                    command: childCommand + [Self.childFlag, dir, role.rawValue],
                    logPath: LiveRunSpec.logPath(dir, role)
                )
            )
        }
        let hardDeadline = spec.lifetime.deadlineRawNs + 2_000_000_000
        var writersDone = false
        while statuses.count < children.count {
            for c in children where statuses[c.pid] == nil {
                if let s = c.poll() { statuses[c.pid] = s }
            }
            if let failed = children.first(where: { statuses[$0.pid].map { $0 != .exited(0) } ?? false }) {
                throw BenchFailure.runtime(
                    "live \(variant.rawValue): the \(failed.role.rawValue) process \(statuses[failed.pid]!.description)\(failed.logTail().isEmpty ? "" : ": " + failed.logTail())"
                )
            }
            if !writersDone, children.filter({ $0.role != .main }).allSatisfy({ statuses[$0.pid] != nil }) {
                writersDone = FileManager.default.createFile(atPath: LiveRunSpec.writersDonePath(dir), contents: nil)
            }
            if SystemMonotonicClock.raw() > hardDeadline {
                let late = children.filter { statuses[$0.pid] == nil }.map(\.role.rawValue).joined(separator: ", ")
                throw BenchFailure.runtime("live \(variant.rawValue): \(late) still running at the deadline; killed")
            }
            usleep(5_000)
        }
        func load<T: Decodable>(_ type: T.Type, _ role: ProcessRole) throws -> T {
            let path = LiveRunSpec.resultPath(dir, role)
            do { return try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw BenchFailure.runtime("live \(variant.rawValue): no valid result from the \(role.rawValue) process (\(path))")
            }
        }
        var tally = try load(InvalidationTally.self, .main)
        let share = try load(ShareResult.self, .share)
        tally.shareReads = share.reads
        tally.shareStaleReads = share.staleReads
        return tally
    }
}
