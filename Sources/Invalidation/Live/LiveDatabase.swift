import Measurement

/// The shared database of a live run: the rows every process reads and writes, stamped with a
/// version per row, plus the accounting tables the harness reads afterwards.
///
/// - `rows(key, version)`: the data; a writer bumps `version` of each row it writes.
/// - `versions(key, version, writer, committed_ns)`: every version ever committed, so a reader
///   can tell exactly whether what it served was stale, and since when.
/// - `commits(seq, writer, committed_ns)`: one row per write transaction.
/// - `changes(seq, commit_seq, key, writer)`: the change log (`change-log` variant only).
///
/// `writer` is the role's tag byte; `committed_ns` is CLOCK_MONOTONIC (system-wide on Linux),
/// stamped inside the transaction just before COMMIT.
enum LiveDatabase {
    static func create(path: String, keys: Int) throws {
        let db = try SQLiteConnection(path: path)
        try db.exec(
            """
            PRAGMA journal_mode=WAL;
            CREATE TABLE rows(key INTEGER PRIMARY KEY, version INTEGER NOT NULL);
            CREATE TABLE versions(key INTEGER NOT NULL, version INTEGER NOT NULL, writer INTEGER NOT NULL,
                                  committed_ns INTEGER NOT NULL, PRIMARY KEY(key, version));
            CREATE TABLE commits(seq INTEGER PRIMARY KEY, writer INTEGER NOT NULL, committed_ns INTEGER NOT NULL);
            CREATE TABLE changes(seq INTEGER PRIMARY KEY, commit_seq INTEGER NOT NULL, key INTEGER NOT NULL, writer INTEGER NOT NULL);
            """
        )
        try db.exec("BEGIN")
        for k in 0..<keys { try db.query("INSERT INTO rows(key, version) VALUES (?, 0)", [Int64(k)]) }
        try db.exec("COMMIT")
        guard try db.scalar("SELECT COUNT(*) FROM rows") == Int64(keys) else {
            throw BenchFailure.runtime("sqlite: the rows table was not created")
        }
    }

    /// Opens a process's connection: WAL is a property of the file, checked here.
    static func open(path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path)
        let mode = try db.text("PRAGMA journal_mode")
        guard mode == "wal" else { throw BenchFailure.runtime("sqlite: \(path) is in journal mode \(mode ?? "?"), not WAL") }
        return db
    }

    /// One write transaction by `role`: bump each row's version, record the versions and the
    /// commit (and the change log for `change-log`). Returns each row's new version.
    @discardableResult
    static func write(
        _ db: SQLiteConnection,
        role: ProcessRole,
        keys: [Int],
        changeLog: Bool,
        stamp: () -> Int64
    ) throws -> [(key: Int, version: Int64)] {
        let writer = Int64(role.tag)
        try db.exec("BEGIN IMMEDIATE")
        do {
            var written: [(Int64, Int64)] = []
            for k in keys {
                try db.query("UPDATE rows SET version = version + 1 WHERE key = ?", [Int64(k)])
                let v = try db.scalar("SELECT version FROM rows WHERE key = ?", [Int64(k)]) ?? 0
                written.append((Int64(k), v))
            }
            let now = stamp()
            try db.query("INSERT INTO commits(writer, committed_ns) VALUES (?, ?)", [writer, now])
            let seq = try db.scalar("SELECT last_insert_rowid()") ?? 0
            for (k, v) in written {
                try db.query("INSERT INTO versions(key, version, writer, committed_ns) VALUES (?, ?, ?, ?)", [k, v, writer, now])
                if changeLog { try db.query("INSERT INTO changes(commit_seq, key, writer) VALUES (?, ?, ?)", [seq, k, writer]) }
            }
            try db.exec("COMMIT")
            return written.map { (Int($0.0), $0.1) }
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }
}
