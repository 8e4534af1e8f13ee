import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary folders isolated items exchange their samples through,
/// `patternbench-item-<pid>-<index>-<uuid>` in the temporary directory, named after the run that
/// made them so that any later run can tell whose they are.
///
/// A run removes each folder when its item ends, and its own remaining ones when an interrupt
/// ends it; but a run killed with SIGKILL (or a second SIGINT, which exits at once) runs no code
/// at all, and its children die with it. So every executable's entry (`BenchMain.run`) first
/// sweeps the folders whose run is no longer alive: no item folder outlives the next run of any
/// tool, whichever tool that is.
package enum ItemFolders {
    static let prefix = "patternbench-item-"

    /// A new, empty folder for item `index` of this run.
    package static func make(index: Int, in directory: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let folder = directory.appendingPathComponent("\(prefix)\(getpid())-\(index)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The pid a folder name carries, nil for a name that is not an item folder's.
    static func owner(of name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        return name.dropFirst(prefix.count).split(separator: "-", maxSplits: 1).first.flatMap { pid_t($0) }
    }

    /// Whether `pid` names a process that exists (EPERM: it exists, someone else's).
    static func isAlive(_ pid: pid_t) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }

    /// Removes the item folders of runs that are no longer alive and that this user made; returns
    /// how many it removed. A folder of a live run, this one's included, is left alone, and so is
    /// another user's in a shared temporary directory. (A dead run's pid that the system has since
    /// given to another process keeps its folders until that process ends.)
    @discardableResult
    package static func sweepStale(
        in directory: URL = FileManager.default.temporaryDirectory,
        isAlive: (pid_t) -> Bool = isAlive,
        user: uid_t = geteuid()
    ) -> Int {
        remove(in: directory) { pid, path in !isAlive(pid) && owner(ofFile: path) == user }
    }

    /// The user that owns `path`, nil when it cannot be read.
    static func owner(ofFile path: String) -> uid_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    /// Removes this run's own item folders: an interrupted run's items that were abandoned in flight.
    @discardableResult
    package static func removeOwn(in directory: URL = FileManager.default.temporaryDirectory) -> Int {
        let me = getpid()
        return remove(in: directory) { pid, _ in pid == me }
    }

    private static func remove(in directory: URL, where matches: (pid_t, String) -> Bool) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names {
            let path = directory.appendingPathComponent(name).path
            guard let pid = owner(of: name), matches(pid, path) else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
