import BuildProvenance
import Foundation
import Synchronization

/// Everything needed to reproduce or distrust a run: code, toolchain, build, host, inputs.
public struct RunMetadata: Codable, Hashable, Sendable {
    /// The commit of the source the binary was built from (recorded at build time), nil when the
    /// build had no git checkout to read (a tarball) — not the commit of the folder it runs in.
    public var gitCommit: String?
    /// Whether tracked files differed from that commit when the binary was built; nil when unknown
    /// (no checkout, or a document from before the flag existed).
    public var gitDirty: Bool?
    public var swiftVersion: String
    public var buildConfiguration: String
    public var host: HostInfo
    public var commandLine: [String]
    /// Every parameter the run used, defaults included, so the JSON alone reproduces the run.
    public var parameters: [String: JSONValue]
    /// The user's package whose executable ran (its name and commit), beside PatternBench's
    /// `gitCommit`; nil in PatternBench's own `bench-*` tools and in documents from before it.
    public var userPackage: PackageProvenance?
    /// The host's 1-minute load average when the run started and when it ended (`HostLoad`); nil
    /// in documents from before it and where the system does not tell.
    public var loadAverage1mStart: Double?
    public var loadAverage1mEnd: Double?

    /// The version of the random streams the run's virtual-time values come from (for
    /// bench-throttle, `ArrivalIterator.streamVersion`; 1 for a workload whose streams never
    /// changed). Values are bit-identical per seed only within one version, so bench-gate compares
    /// deterministic values only between documents of the same one. Nil in documents from before
    /// the key existed, which all drew from version 1: `streamVersion`.
    public var randomStreamVersion: Int?

    /// `randomStreamVersion`, with a document that predates the key read as version 1.
    public var streamVersion: Int { randomStreamVersion ?? 1 }

    enum CodingKeys: String, CodingKey {
        case gitCommit = "git_commit"
        case gitDirty = "git_dirty"
        case swiftVersion = "swift_version"
        case
            buildConfiguration = "build_configuration"
        case host
        case commandLine = "command_line"
        case parameters
        case userPackage = "user_package"
        case loadAverage1mStart = "load_average_1m_start"
        case loadAverage1mEnd = "load_average_1m_end"
        case randomStreamVersion = "random_stream_version"
    }

    /// Metadata for the current process, with the given parameters, the version of the random
    /// streams the run drew from (`Workload.randomStreamVersion`) and `loadAtStart`, the host's load
    /// when the run started (the load at its end is read now).
    public static func current(
        parameters: [String: JSONValue],
        randomStreamVersion: Int = 1,
        loadAtStart: Double? = nil
    )
        -> RunMetadata
    {
        RunMetadata(
            gitCommit: BuildInfo.gitCommit,
            gitDirty: BuildInfo.gitDirty,
            swiftVersion: BuildInfo.swiftVersion,
            buildConfiguration: BuildInfo.configuration,
            host: .current,
            commandLine: CommandLine.arguments,
            parameters: parameters,
            userPackage: userPackageState.withLock { state in
                if case .wanted = state { state = .read(PackageProvenance.ofExecutable()) }
                if case .read(let package) = state { return package }
                return nil
            },
            loadAverage1mStart: loadAtStart,
            loadAverage1mEnd: HostLoad.oneMinute(),
            randomStreamVersion: randomStreamVersion
        )
    }

    private enum UserPackageState {
        case none, wanted
        case read(PackageProvenance?)
    }
    private static let userPackageState = Mutex(UserPackageState.none)

    /// From now on, the metadata of every run this process writes names the package of the
    /// running executable (`PackageProvenance.ofExecutable`): a user's executable (`SuiteMain.run`)
    /// asks for it at start. It is read once, when the first document is written, so a child
    /// process that writes none runs no `git`.
    public static func recordUserPackage() {
        userPackageState.withLock { if case .none = $0 { $0 = .wanted } }
    }
}

/// Facts about the build this process runs from.
public enum BuildInfo {
    /// `debug` or `release`. Timings from a debug build are not worth reporting.
    public static var configuration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    public static var isDebug: Bool { configuration == "debug" }

    /// The compiler's language version, to the minor version.
    public static var swiftVersion: String {
        #if swift(>=6.5)
        ">=6.5"
        #elseif swift(>=6.4)
        "6.4"
        #elseif swift(>=6.3)
        "6.3"
        #elseif swift(>=6.2)
        "6.2"
        #elseif swift(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    /// The commit of the source this binary was built from, written at build time by
    /// Plugins/ProvenancePlugin (nil when the build had no git checkout). Reading `.git` at run
    /// time instead would name whatever repository the process happens to be started in.
    public static var gitCommit: String? { SourceProvenance.gitCommit }

    /// Whether that source had uncommitted changes to tracked files (nil when unknown).
    public static var gitDirty: Bool? { SourceProvenance.gitDirty }
}
