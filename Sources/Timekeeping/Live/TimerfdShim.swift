import Foundation
import Records

/// The LD_PRELOAD shim that keeps libdispatch's timers working under libfaketime.
///
/// libfaketime wraps `timerfd_settime`/`timerfd_gettime` and treats absolute deadlines as fake
/// wall-clock times, so every libdispatch timer (an absolute CLOCK_MONOTONIC timerfd) sleeps
/// forever (wolfcw/libfaketime#378). The shim defines the timerfd calls itself and issues the raw
/// system calls; loaded before libfaketime, the dynamic linker binds the process to the shim's
/// symbols, so timerfd deadlines reach the kernel unchanged while clock reads stay faked.
///
/// Why it is compiled at run time with `cc` into a cache folder rather than built by SwiftPM:
/// the shim must be a separate shared object loaded into a *child* process, and `swift run
/// bench-clock` builds only the executable's dependencies, not a dynamic-library product, whose
/// path would also differ between debug/release and `swift build` layouts. Compiling the ~40
/// lines of C on first use (a few tens of milliseconds, cached by content hash) works the same
/// from `swift run`, an installed binary and the tests. It needs a C compiler, which live mode
/// checks for and names in its error.
package enum TimerfdShim {
    package static let source = #"""
        /* PatternBench timerfd pass-through, preloaded before libfaketime (wolfcw/libfaketime#378). */
        #define _GNU_SOURCE
        #include <sys/syscall.h>
        #include <sys/timerfd.h>
        #include <time.h>
        #include <unistd.h>

        int timerfd_create(int clockid, int flags) {
            return (int)syscall(SYS_timerfd_create, clockid, flags);
        }

        int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
            return (int)syscall(SYS_timerfd_settime, fd, flags, new_value, old_value);
        }

        int timerfd_gettime(int fd, struct itimerspec *curr_value) {
            return (int)syscall(SYS_timerfd_gettime, fd, curr_value);
        }

        /* Lets the harness check that this object really was preloaded. */
        int patternbench_timerfd_shim_loaded(void) { return 1; }
        """#

    /// FNV-1a of the source, so an edited shim gets a new file name.
    static var sourceHash: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in source.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }

    package struct BuildError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Where the shim may be cached, best first: `$XDG_CACHE_HOME/patternbench`,
    /// `~/.cache/patternbench`, then a per-user folder in the temp dir (for read-only homes).
    static var cacheFolders: [String] {
        let env = ProcessInfo.processInfo.environment
        var folders: [String] = []
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { folders.append(xdg + "/patternbench") }
        if let home = env["HOME"], !home.isEmpty { folders.append(home + "/.cache/patternbench") }
        folders.append(NSTemporaryDirectory() + "patternbench-\(getuid())")
        return folders
    }

    /// Returns the path of the compiled shim, compiling it first if the cache lacks it.
    package static func build() throws(BuildError) -> String {
        let name = "libpb-timerfd-shim-\(sourceHash).so"
        for folder in cacheFolders where FileManager.default.fileExists(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        guard let cc = Executables.find("cc") ?? Executables.find("gcc") ?? Executables.find("clang") else {
            throw BuildError(
                description: "live mode compiles a small timerfd preload shim and needs a C compiler: install the Debian package `gcc`"
            )
        }
        guard
            let folder = cacheFolders.first(where: { folder in
                (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil
                    && access(folder, W_OK) == 0
            })
        else {
            throw BuildError(description: "no writable cache folder for the timerfd shim (tried \(cacheFolders.joined(separator: ", ")))")
        }
        let library = "\(folder)/\(name)"
        let pid = getpid()
        let cFile = "\(folder)/timerfd-shim-\(pid).c"
        let temporary = "\(library).\(pid).tmp"
        guard FileManager.default.createFile(atPath: cFile, contents: Data(source.utf8)) else {
            throw BuildError(description: "cannot write \(cFile)")
        }
        defer { unlink(cFile) }
        let result = Executables.run(cc, ["-shared", "-fPIC", "-O2", "-o", temporary, cFile])
        guard result.status == 0 else {
            unlink(temporary)
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? "exit \(result.status)"
            throw BuildError(description: "compiling the timerfd shim with \(cc) failed: \(first)")
        }
        do { try AtomicFile.Staged(temporary: temporary, destination: library).commit() } catch {
            throw BuildError(description: "cannot move the timerfd shim into place: \(error.description)")
        }
        return library
    }
}
