import Foundation

/// A run's output folder: `<workload>.csv` and `<workload>.json`, written atomically.
public struct ResultsFolder: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    /// The default: a new folder per run under `results/runs/`.
    public static func defaultPath(runID: String) -> String {
        "results/runs/\(runID)"
    }

    /// Creates the folder (and parents), checks that it can be written and takes the folder's lock
    /// for `workload`, before any measuring, so that a bad `--output` fails in a second rather than
    /// after a long run, and two runs of one workload never write the same folder at once.
    ///
    /// The lock is an advisory `flock` on `.<workload>.lock`, held until the process exits (the
    /// kernel releases it even after a crash or SIGKILL). With it held, temporary files left in the
    /// folder by an earlier, killed run of the same workload are removed.
    public func prepare(workload: String) throws(AtomicFile.WriteError) {
        try prepare()
        let lockPath = (path as NSString).appendingPathComponent(".\(workload).lock")
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: lockPath, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw AtomicFile.WriteError(
                path: path,
                reason: "another \(workload) run is writing this folder (\(lockPath) is locked); choose another --output"
            )
        }
        // Deliberately never closed: the lock lives as long as the process.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name.hasPrefix(".\(workload).") && name.hasSuffix(".tmp") {
            unlink((path as NSString).appendingPathComponent(name))
        }
    }

    /// Creates the folder (and parents) and checks that it can be written.
    public func prepare() throws(AtomicFile.WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw AtomicFile.WriteError(path: path, reason: Self.explain(path) ?? Self.reason(error))
        }
        guard access(path, W_OK) == 0 else {
            throw AtomicFile.WriteError(path: path, reason: "folder is not writable")
        }
    }

    public func csvPath(workload: String) -> String { (path as NSString).appendingPathComponent("\(workload).csv") }
    public func jsonPath(workload: String) -> String { (path as NSString).appendingPathComponent("\(workload).json") }

    public func write(_ document: RunDocument) throws(AtomicFile.WriteError) {
        let json: Data
        do { json = try document.encoded() } catch {
            throw AtomicFile.WriteError(path: jsonPath(workload: document.workload), reason: "\(error)")
        }
        // Both files are written in full before either is put in place; the JSON goes last, so the
        // only possible mix after a crash between the renames is a new CSV beside an old JSON, which
        // bench-gate detects (their records disagree) and refuses.
        let csv = try AtomicFile.stage(
            Data(CSVWriter.render(document.records, factorNames: document.factorNames).utf8),
            to: csvPath(workload: document.workload)
        )
        try csv.commit(before: { () throws(AtomicFile.WriteError) in
            try AtomicFile.stage(json, to: jsonPath(workload: document.workload))
        })
    }

    /// Why a folder cannot be created, in the user's terms: which existing ancestor is in the way.
    static func explain(_ path: String) -> String? {
        var ancestor = URL(fileURLWithPath: path).standardizedFileURL
        while ancestor.path != "/" {
            ancestor.deleteLastPathComponent()
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue { return "\(ancestor.path) is a file, not a folder" }
            if access(ancestor.path, W_OK) != 0 { return "cannot create folders in \(ancestor.path) (not writable)" }
            return nil
        }
        return nil
    }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
            let posix = POSIXErrorCode(rawValue: Int32(underlying.code)), underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(posix.rawValue))
        }
        return ns.localizedDescription
    }
}
