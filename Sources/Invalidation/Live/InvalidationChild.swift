import Foundation
import Measurement
import Processes
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point of a live child process: reads the run's spec and plays its role.
public enum InvalidationChild {
    /// Runs role `role` of the live run in `directory`; returns the process exit code.
    public static func main(directory: String, role: String) -> Int32 {
        ParentWatch.armInChild()
        do {
            guard let role = ProcessRole(rawValue: role) else { throw BenchFailure.usage("unknown child role '\(role)'") }
            let spec = try JSONDecoder().decode(LiveRunSpec.self, from: Data(contentsOf: URL(fileURLWithPath: LiveRunSpec.path(directory))))
            var context = try ChildContext(directory: directory, spec: spec, role: role)
            switch role {
            case .main:
                var app = LiveMainApp(context: context)
                let tally = try app.run()
                try JSONEncoder().encode(tally).write(to: URL(fileURLWithPath: LiveRunSpec.resultPath(directory, .main)))
            case .nse:
                try context.runWriter()
            case .share:
                let result = try context.runShare()
                try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: LiveRunSpec.resultPath(directory, .share)))
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("invalidation child \(role): \(error)\n".utf8))
            return 70
        }
    }
}

/// What every child role shares: the database, its clock relative to the common start, the
/// posting side of its notification name, and the checks that bound its life.
struct ChildContext {
    let directory: String
    let spec: LiveRunSpec
    let role: ProcessRole
    let db: SQLiteConnection
    var poster: NotificationPoster
    let state: SharedNotificationState?

    init(directory: String, spec: LiveRunSpec, role: ProcessRole) throws {
        self.directory = directory
        self.spec = spec
        self.role = role
        db = try LiveDatabase.open(path: LiveRunSpec.databasePath(directory))
        let name = spec.channel(of: role)
        let listeners =
            spec.mainChannels().contains(name) ? [NotificationPoster.fifoPath(directory: directory, listener: .main, name: name)] : []
        poster = NotificationPoster(paths: listeners)
        state = spec.variant.sharedChannel ? try SharedNotificationState(path: LiveRunSpec.statePath(directory)) : nil
    }

    /// Nanoseconds since the common start.
    func now() -> Int64 { spec.lifetime.now() }

    /// Throws when the harness is gone or the deadline passed: a child never outlives its run.
    func checkAlive() throws { try spec.lifetime.checkAlive() }

    func sleep(until t: Int64) throws {
        while true {
            try checkAlive()
            let left = t - now()
            guard left > 0 else { return }
            var ts = timespec(tv_sec: 0, tv_nsec: Int(min(left, 50_000_000)))
            nanosleep(&ts, nil)
        }
    }

    /// A write transaction, then the post (legacy: the pid into the shared state first).
    @discardableResult
    mutating func write(_ keys: [Int]) throws -> [(key: Int, version: Int64)] {
        let written = try LiveDatabase.write(db, role: role, keys: keys, changeLog: spec.variant == .changeLog) {
            SystemMonotonicClock.raw()
        }
        state?.set(UInt64(getpid()))
        poster.post(tag: role.tag)
        return written
    }

    /// The notification extension: at each push it re-warms (reads the rows from the store: its
    /// caches are size 0, so it is never stale) and writes one transaction.
    mutating func runWriter() throws {
        for w in spec.plan.writes where w.role == role {
            try sleep(until: w.timeNs)
            for k in w.keys { _ = try db.scalar("SELECT version FROM rows WHERE key = ?", [Int64(k)]) }
            try write(w.keys)
        }
        guard poster.failed == 0 else { throw BenchFailure.runtime("\(poster.failed) posts found no listener") }
    }

    /// The share extension: sessions that read through a cache never invalidated by others'
    /// writes (except under `change-log`, where it checks the log like every reader), each ending
    /// with one write.
    mutating func runShare() throws -> ShareResult {
        enum Step {
            case start
            case read(Int)
            case write([Int])
        }
        var steps: [(Int64, Int, Step)] = spec.plan.shareSessionStarts.map { ($0, 0, .start) }
        steps += spec.plan.shareReads.map { ($0.timeNs, 2, .read($0.key)) }
        steps += spec.plan.writes.filter { $0.role == .share }.map { ($0.timeNs, 1, .write($0.keys)) }
        steps.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var cache = ReaderCache(capacity: spec.plan.shareCacheCapacity)
        var checker = ChangeLogReader(db: db, role: role)
        var result = ShareResult(reads: 0, staleReads: 0)
        for (t, _, step) in steps {
            try sleep(until: t)
            switch step {
            case .start:
                cache = ReaderCache(capacity: spec.plan.shareCacheCapacity)
                try checker.skipToEnd()
            case .read(let key):
                if spec.variant.validatesEveryRead { for k in try checker.changedKeys() { cache.remove(k) } }
                result.reads += 1
                let current = try db.scalar("SELECT version FROM rows WHERE key = ?", [Int64(key)]) ?? 0
                if let v = cache.lookup(key) {
                    if v < current { result.staleReads += 1 }
                } else {
                    cache.store(key, version: current)
                }
            case .write(let keys):
                for (k, v) in try write(keys) { cache.store(k, version: v) }
            }
        }
        guard poster.failed == 0 else { throw BenchFailure.runtime("\(poster.failed) posts found no listener") }
        return result
    }
}

/// `change-log`'s reader side: `PRAGMA data_version` (changes only when another connection
/// commits; no I/O beyond the WAL index) and, when it moved, the log rows past the cursor.
struct ChangeLogReader {
    let db: SQLiteConnection
    let role: ProcessRole
    var dataVersion: Int64 = -1
    var cursor: Int64 = 0
    /// Log queries run (each a store read).
    var queries = 0

    init(db: SQLiteConnection, role: ProcessRole) {
        self.db = db
        self.role = role
    }

    mutating func skipToEnd() throws {
        dataVersion = try db.scalar("PRAGMA data_version") ?? 0
        cursor = try db.scalar("SELECT MAX(seq) FROM changes") ?? 0
    }

    /// Rows other processes changed since the last call; empty without a query when nothing moved.
    mutating func changedKeys() throws -> [Int] {
        let dv = try db.scalar("PRAGMA data_version") ?? 0
        guard dv != dataVersion else { return [] }
        dataVersion = dv
        let rows = try db.query("SELECT seq, key FROM changes WHERE seq > ? AND writer != ? ORDER BY seq", [cursor, Int64(role.tag)])
        queries += 1
        if let last = rows.last { cursor = last[0] }
        return rows.map { Int($0[1]) }
    }
}
