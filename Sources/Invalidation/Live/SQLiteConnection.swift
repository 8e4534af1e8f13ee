import CSQLite
import Measurement

/// A minimal connection to the system SQLite: integer statements only, prepared once and reused.
///
/// Live mode needs real database semantics — WAL, cross-process locking, `PRAGMA data_version` —
/// not an ORM, so this wraps the C API directly. Not thread-safe: one per process and thread.
final class SQLiteConnection {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    init(path: String) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw BenchFailure.runtime("sqlite: cannot open \(path): \(message)")
        }
        // Writers from three processes queue on the WAL write lock instead of failing.
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        for s in statements.values { sqlite3_finalize(s) }
        sqlite3_close(db)
    }

    private func error(_ what: String) -> BenchFailure {
        BenchFailure.runtime("sqlite: \(what): \(String(cString: sqlite3_errmsg(db)))")
    }

    /// Runs one or more statements that return nothing worth reading.
    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    /// Runs `sql` with integer arguments and returns every row's integer columns.
    @discardableResult
    func query(_ sql: String, _ arguments: [Int64] = []) throws -> [[Int64]] {
        let statement: OpaquePointer
        if let s = statements[sql] {
            statement = s
        } else {
            var s: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else { throw error("prepare \(sql)") }
            statements[sql] = s
            statement = s
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, a) in arguments.enumerated() { sqlite3_bind_int64(statement, Int32(i + 1), a) }
        var rows: [[Int64]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw error(sql) }
            let n = sqlite3_column_count(statement)
            rows.append((0..<n).map { sqlite3_column_type(statement, $0) == SQLITE_NULL ? Int64.min : sqlite3_column_int64(statement, $0) })
        }
    }

    /// The first column of the first row, nil when there is no row or it is NULL.
    func scalar(_ sql: String, _ arguments: [Int64] = []) throws -> Int64? {
        let v = try query(sql, arguments).first?.first
        return v == Int64.min ? nil : v
    }

    /// The first column of the first row as text (pragmas such as `journal_mode`).
    func text(_ sql: String) throws -> String? {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else { throw error("prepare \(sql)") }
        defer { sqlite3_finalize(s) }
        guard sqlite3_step(s) == SQLITE_ROW, let c = sqlite3_column_text(s, 0) else { return nil }
        return String(cString: c)
    }
}
