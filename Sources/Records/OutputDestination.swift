import Foundation

/// Where the bytes for an output path really go, decided before anything is written.
///
/// An output is replaced (written beside and renamed over) only where the path is a regular file
/// or absent. Everything else is somebody else's: a symlink is followed to its target (the link is
/// kept), and a FIFO, a device or the process's own stdout is written straight through, since
/// renaming over it would destroy the node (as root, `--perfetto /dev/full` once replaced the
/// device with an 83 MB file) and leave its reader with nothing.
public enum OutputDestination: Hashable, Sendable {
    /// A regular file or nothing at this real path (symlinks resolved): written to a temporary
    /// file in the same folder and renamed over it, so a reader never sees half a file.
    case replace(String)
    /// A FIFO, character or block device: opened and written in place, never renamed over.
    case through(String)
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: the process's open descriptor,
    /// written at its current offset (reopening it would truncate what the shell redirected).
    case descriptor(Int32)

    /// Follows `path` through symlinks (at most 40, as the kernel does) to what it names.
    public static func resolve(_ path: String) throws(AtomicFile.WriteError) -> OutputDestination {
        var current = path
        for _ in 0..<40 {
            if let fd = descriptorNumber(current) { return .descriptor(fd) }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return .replace(current) }
                throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno)))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let target = readLink(current) else {
                    throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno)))
                }
                current =
                    target.hasPrefix("/")
                    ? target : (URL(fileURLWithPath: current).deletingLastPathComponent().path as NSString).appendingPathComponent(target)
            case S_IFREG: return .replace(current)
            case S_IFDIR: throw AtomicFile.WriteError(path: path, reason: "is a folder, not a file")
            default: return .through(current)
            }
        }
        throw AtomicFile.WriteError(path: path, reason: "too many levels of symbolic links")
    }

    /// The descriptor a path names by itself, without the file system: `/dev/stdout` is 1 whatever
    /// stdout is (a pipe's `/proc/self/fd/1` resolves to no path at all).
    static func descriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
