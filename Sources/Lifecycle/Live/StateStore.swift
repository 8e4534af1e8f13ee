import CSQLite
import Foundation
import Measurement

#if canImport(Glibc)
import Glibc
#endif

/// Where the live app keeps its state, with one of the durability strategies: what a SIGKILL in
/// the middle of `save` leaves is exactly what this strategy guarantees.
protocol StateStore {
    func save(version: Int64) throws
    /// What a relaunch finds.
    func load() throws -> StateImage.Decoded
    /// Starts over (after a corrupt state was found and reported).
    func reset() throws
}

enum StateStores {
    static func make(_ durability: LifecyclePolicy.Durability, directory: String) throws -> any StateStore {
        switch durability {
        case .inPlace: InPlaceStore(path: directory + "/state.bin")
        case .rename: RenameStore(directory: directory, fsync: false)
        case .renameFsync: RenameStore(directory: directory, fsync: true)
        case .sqliteWAL: try SQLiteStore(path: directory + "/state.sqlite")
        }
    }
}

/// Writes the image of `version` to an open descriptor: the body in 4 KiB write(2) calls, then the
/// trailer, so that a whole save is hundreds of system calls a kill can fall between.
private func writeImage(_ fd: Int32, version: Int64, path: String) throws {
    try writeAll(fd, StateImage.body, path: path)
    try writeAll(fd, StateImage.trailer(version: version), path: path)
}

private func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
    var offset = 0
    try bytes.withUnsafeBytes { raw in
        while offset < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + offset, min(4096, raw.count - offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw BenchFailure.runtime("write \(path): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

private func readFile(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

/// Overwrites the one state file: truncate, then write. A kill in between tears it.
struct InPlaceStore: StateStore {
    let path: String

    func save(version: Int64) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure.runtime("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try writeImage(fd, version: version, path: path)
    }

    func load() throws -> StateImage.Decoded {
        guard let bytes = readFile(path) else { return .none }
        return StateImage.decode(bytes)
    }

    func reset() throws { unlink(path) }
}

/// Writes a temporary file and renames it over the state: rename(2) replaces atomically, so a
/// kill leaves the old state or the new one. `fsync` adds the file's and the directory's fsync,
/// which matter for a power loss (not for a process kill, which keeps the page cache).
struct RenameStore: StateStore {
    let directory: String
    let fsync: Bool
    var path: String { directory + "/state.bin" }

    func save(version: Int64) throws {
        let temporary = directory + "/state.bin.tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure.runtime("open \(temporary): \(String(cString: strerror(errno)))") }
        do {
            try writeImage(fd, version: version, path: temporary)
            if fsync, Glibc.fsync(fd) != 0 { throw BenchFailure.runtime("fsync \(temporary): \(String(cString: strerror(errno)))") }
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw BenchFailure.runtime("rename \(temporary): \(String(cString: strerror(errno)))") }
        if fsync {
            let dfd = open(directory, O_RDONLY | O_DIRECTORY)
            if dfd >= 0 {
                _ = Glibc.fsync(dfd)
                close(dfd)
            }
        }
    }

    func load() throws -> StateImage.Decoded {
        guard let bytes = readFile(path) else { return .none }
        return StateImage.decode(bytes)
    }

    func reset() throws { unlink(path) }
}

/// One row in SQLite (WAL mode, synchronous=NORMAL as GRDB's default is for WAL): each save is
/// one transaction, so a kill leaves the last committed row.
final class SQLiteStore: StateStore {
    private var db: OpaquePointer?
    let path: String

    init(path: String) throws {
        self.path = path
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            sqlite3_close(db)
            throw BenchFailure.runtime("sqlite: cannot open \(path)")
        }
        sqlite3_busy_timeout(db, 10_000)
        try exec(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE IF NOT EXISTS state(id INTEGER PRIMARY KEY, body BLOB NOT NULL)"
        )
    }

    deinit { sqlite3_close(db) }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchFailure.runtime("sqlite: \(sql.prefix(40)): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func save(version: Int64) throws {
        let image = StateImage.encode(version: version)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO state(id, body) VALUES (1, ?)", -1, &statement, nil) == SQLITE_OK else {
            throw BenchFailure.runtime("sqlite: prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        let rc = image.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, 1, raw.baseAddress, Int32(raw.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard rc == SQLITE_OK, sqlite3_step(statement) == SQLITE_DONE else {
            throw BenchFailure.runtime("sqlite: save: \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func load() throws -> StateImage.Decoded {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT body FROM state WHERE id = 1", -1, &statement, nil) == SQLITE_OK else { return .corrupt }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return .none }
        let n = Int(sqlite3_column_bytes(statement, 0))
        guard let p = sqlite3_column_blob(statement, 0) else { return .corrupt }
        return StateImage.decode([UInt8](UnsafeRawBufferPointer(start: p, count: n)))
    }

    func reset() throws { try exec("DELETE FROM state") }
}
