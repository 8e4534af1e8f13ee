import CLockShim
import Foundation

/// Makes the requested allocator the process allocator, or explains in one line why it cannot.
///
/// jemalloc is loaded at run time, never linked, so the package builds and runs where it is not
/// installed. It cannot simply be `dlopen`-ed: malloc is already bound to glibc by then and
/// memory glibc handed out would later be freed into jemalloc. So when jemalloc is requested and
/// is not yet the allocator, the process re-executes itself (`/proc/self/exe`, same arguments)
/// with `LD_PRELOAD` naming the library, which makes jemalloc serve the very first malloc. A marker
/// variable stops a second re-exec; if jemalloc is still not active after it, that is an error,
/// never a silent fall-back to the system allocator. Conversely, `system` refuses to run when
/// jemalloc was preloaded from outside.
package enum AllocatorSwitch {
    /// Overrides the library file name looked up (default `libjemalloc.so.2`); tests use it to
    /// simulate a machine without jemalloc.
    package static let libraryVariable = "PATTERNBENCH_JEMALLOC_LIBRARY"
    /// Set in the environment of the re-executed process.
    package static let markerVariable = "PATTERNBENCH_JEMALLOC_PRELOADED"
    package static let defaultLibrary = "libjemalloc.so.2"

    package enum Failure: Error, CustomStringConvertible {
        /// The library is not installed: exit "unavailable".
        case notInstalled(library: String)
        /// Anything else that stops the switch.
        case failed(String)

        package var description: String {
            switch self {
            case .notInstalled(let library):
                "--allocator jemalloc needs \(library), which is not installed; install the Debian package libjemalloc2 (or libjemalloc-dev)"
            case .failed(let message):
                message
            }
        }
    }

    /// What the run ends up using.
    package struct Active: Sendable {
        package var choice: AllocatorChoice
        /// nil under the system allocator.
        package var jemalloc: JemallocCounters?
        /// The preloaded library file, when jemalloc.
        package var library: String?

        /// How allocations were (or were not) counted, for the metadata.
        package var countingMethod: String {
            if jemalloc != nil {
                "jemalloc mallctl: bytes = per-thread thread.allocated deltas of the worker threads; allocations = process-wide Δ(stats.arenas.<all>.small.nrequests + large.nrequests)"
            } else {
                "not counted: glibc malloc has no per-thread allocation counters (use --allocator jemalloc)"
            }
        }
    }

    /// Returns the active allocator, re-executing the process first when jemalloc must be preloaded
    /// (in which case this call does not return in the original process).
    /// `activate`, with its failure as the one-line `BenchFailure` a command reports (a missing
    /// library is exit 69, a failed switch exit 70).
    package static func activateForRun(_ choice: AllocatorChoice) throws(BenchFailure) -> Active {
        do { return try activate(choice) } catch {
            switch error {
            case .notInstalled: throw BenchFailure.unavailable(error.description)
            case .failed: throw BenchFailure.runtime(error.description)
            }
        }
    }

    package static func activate(_ choice: AllocatorChoice) throws(Failure) -> Active {
        let environment = ProcessInfo.processInfo.environment
        let preloadedByUs = environment[markerVariable] != nil
        switch choice {
        case .system:
            if lks_jemalloc_active() != 0 {
                throw .failed(
                    "--allocator system, but jemalloc is already the process allocator (LD_PRELOAD=\(environment["LD_PRELOAD"] ?? "")); unset LD_PRELOAD or pass --allocator jemalloc"
                )
            }
            return Active(choice: .system, jemalloc: nil, library: nil)
        case .jemalloc:
            if lks_jemalloc_active() != 0 {
                guard let counters = JemallocCounters.active() else {
                    throw .failed(
                        "jemalloc is the allocator but was built without statistics (config.stats is false); cannot count allocations"
                    )
                }
                return Active(
                    choice: .jemalloc,
                    jemalloc: counters,
                    library: preloadedByUs ? environment["LD_PRELOAD"] : "linked or preloaded externally"
                )
            }
            if preloadedByUs {
                throw .failed(
                    "jemalloc was preloaded (LD_PRELOAD=\(environment["LD_PRELOAD"] ?? "")) but does not serve malloc; cannot run with --allocator jemalloc"
                )
            }
            let library = environment[libraryVariable] ?? defaultLibrary
            guard let path = locate(library, libraryPath: environment["LD_LIBRARY_PATH"]) else {
                throw .notInstalled(library: library)
            }
            try reexec(preloading: path, existing: environment["LD_PRELOAD"])
        }
    }

    /// Finds `library` the way the dynamic loader would for a bare name: `LD_LIBRARY_PATH`, then
    /// the standard and multiarch directories. A name with a slash is taken as a path.
    ///
    /// The file is only looked for, not loaded: jemalloc uses initial-exec thread-local storage,
    /// so a `dlopen` into a running process fails ("cannot allocate memory in static TLS block").
    package static func locate(_ library: String, libraryPath: String?) -> String? {
        if library.contains("/") { return access(library, R_OK) == 0 ? library : nil }
        #if arch(x86_64)
        let multiarch = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let multiarch = "aarch64-linux-gnu"
        #else
        let multiarch = ""
        #endif
        let searched =
            (libraryPath ?? "").split(separator: ":").map(String.init) + [
                "/usr/local/lib", "/usr/lib/\(multiarch)", "/lib/\(multiarch)", "/usr/lib64", "/lib64", "/usr/lib", "/lib",
            ]
        for directory in searched where !directory.isEmpty {
            let candidate = directory + "/" + library
            if access(candidate, R_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func reexec(preloading path: String, existing: String?) throws(Failure) -> Never {
        let preload = [path, existing].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        setenv("LD_PRELOAD", preload, 1)
        setenv(markerVariable, "1", 1)
        fflush(nil)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        throw .failed("cannot re-execute with LD_PRELOAD=\(preload): \(reason)")
    }
}
