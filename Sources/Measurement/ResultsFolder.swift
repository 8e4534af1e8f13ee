import Foundation

/// A run's output folder: `<workload>.csv` and `<workload>.json`, written atomically.
public struct ResultsFolder: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    /// The default: a new folder per run under `results/runs/`.
    public static func defaultPath(runID: String) -> String {
        "results/runs/\(runID)"
    }

    /// Creates the folder (and parents) and checks that it can be written, before any measuring,
    /// so that a bad `--output` fails in a second rather than after a long run.
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
        try AtomicFile.write(CSVWriter.render(document.records, factorNames: document.factorNames), to: csvPath(workload: document.workload))
        try AtomicFile.write(json, to: jsonPath(workload: document.workload))
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
