import Foundation
import Processes

/// The user's package a run's executable comes from, recorded beside PatternBench's own commit.
///
/// PatternBench's commit (`RunMetadata.gitCommit`) says which scenarios and harness measured; a
/// user's variants are code of the user's package, so a result is reproducible only with that
/// package's commit too. PatternBench's build plugin cannot see the user's package (it runs for
/// PatternBench's targets, in PatternBench's folder), so this is read when the run starts, from the
/// package the executable was built in: the nearest folder above the executable holding a
/// `Package.swift` (SwiftPM builds into `<package>/.build/…`). Its git commit is read only when that
/// folder is itself the top of a git work tree — the same rule as PatternBench's own plugin, so a
/// package unpacked inside another repository says "unknown" rather than name the other's commit.
public struct PackageProvenance: Codable, Hashable, Sendable {
    /// The package's name, from `Package(name: …)` in its manifest; nil when unreadable.
    public var name: String?
    /// The package's folder.
    public var path: String
    /// The commit checked out in that folder when the run started; nil when it is not a checkout.
    public var gitCommit: String?
    /// Whether tracked files differed from that commit; nil when unknown.
    public var gitDirty: Bool?
    /// True when the executable is older than that commit: it may have been built from an earlier
    /// one (rebuild, as `swift run` does). Nil when unknown.
    public var executableOlderThanCommit: Bool?

    enum CodingKeys: String, CodingKey {
        case name, path
        case gitCommit = "git_commit"
        case gitDirty = "git_dirty"
        case executableOlderThanCommit = "executable_older_than_commit"
    }

    /// The package holding `executable` (default: this process's executable), or nil when no
    /// folder above it has a `Package.swift`.
    public static func ofExecutable(_ executable: URL? = Bundle.main.executableURL) -> PackageProvenance? {
        guard let executable = executable?.resolvingSymlinksInPath() else { return nil }
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            let manifest = folder.appendingPathComponent("Package.swift")
            if FileManager.default.fileExists(atPath: manifest.path) {
                return of(packageAt: folder, executable: executable)
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The provenance of the package in `folder`.
    public static func of(packageAt folder: URL, executable: URL? = nil) -> PackageProvenance {
        let manifest = (try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        var result = PackageProvenance(name: packageName(inManifest: manifest), path: folder.path)
        let top = git(["rev-parse", "--show-toplevel"], in: folder)
        guard let top, URL(fileURLWithPath: top).resolvingSymlinksInPath().path == folder.resolvingSymlinksInPath().path,
            let commit = git(["rev-parse", "--verify", "-q", "HEAD"], in: folder)
        else { return result }
        result.gitCommit = commit
        if let status = git(["status", "--porcelain", "--untracked-files=no"], in: folder, allowEmpty: true) {
            result.gitDirty = !status.isEmpty
        }
        if let executable, let seconds = git(["log", "-1", "--format=%ct"], in: folder).flatMap(TimeInterval.init),
            let built = (try? FileManager.default.attributesOfItem(atPath: executable.path))?[.modificationDate] as? Date
        {
            result.executableOlderThanCommit = built.timeIntervalSince1970 < seconds
        }
        return result
    }

    /// The `name:` argument of `Package(…)` in a manifest's text.
    package static func packageName(inManifest text: String) -> String? {
        guard let call = text.range(of: #"Package\s*\(\s*name\s*:\s*""#, options: .regularExpression) else { return nil }
        let rest = text[call.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let name = String(rest[..<end])
        return name.isEmpty ? nil : name
    }

    /// `git -C folder ARGS`, its trimmed output; nil when git is missing or fails. A
    /// `SpawnedChild`, as every child PatternBench starts.
    static func git(_ arguments: [String], in folder: URL, allowEmpty: Bool = false) -> String? {
        let out = Pipe()
        let child: SpawnedChild
        do {
            defer { try? out.fileHandleForWriting.close() }
            child = try SpawnedChild.spawn(
                "git",
                arguments: ["-C", folder.path] + arguments,
                stdout: .descriptor(out.fileHandleForWriting.fileDescriptor)
            )
        } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        guard child.wait() == .exited(0) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty && !allowEmpty ? nil : text
    }
}
