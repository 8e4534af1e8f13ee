import Foundation

/// Everything needed to reproduce or distrust a run: code, toolchain, build, host, inputs.
public struct RunMetadata: Codable, Hashable, Sendable {
    public var gitCommit: String?
    public var swiftVersion: String
    public var buildConfiguration: String
    public var host: HostInfo
    public var commandLine: [String]
    /// Every parameter the run used, defaults included, so the JSON alone reproduces the run.
    public var parameters: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case gitCommit = "git_commit", swiftVersion = "swift_version",
             buildConfiguration = "build_configuration", host, commandLine = "command_line", parameters
    }

    public init(
        gitCommit: String?, swiftVersion: String, buildConfiguration: String, host: HostInfo,
        commandLine: [String], parameters: [String: JSONValue]
    ) {
        self.gitCommit = gitCommit
        self.swiftVersion = swiftVersion
        self.buildConfiguration = buildConfiguration
        self.host = host
        self.commandLine = commandLine
        self.parameters = parameters
    }

    /// Metadata for the current process, with the given parameters.
    public static func current(parameters: [String: JSONValue]) -> RunMetadata {
        RunMetadata(
            gitCommit: BuildInfo.gitCommit,
            swiftVersion: BuildInfo.swiftVersion,
            buildConfiguration: BuildInfo.configuration,
            host: .current,
            commandLine: CommandLine.arguments,
            parameters: parameters
        )
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

    /// The commit of the working tree the process was started in, when it is a git checkout.
    public static let gitCommit: String? = {
        var dir = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<16 {
            let head = dir.appendingPathComponent(".git/HEAD")
            if let text = try? String(contentsOf: head, encoding: .utf8) {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed.hasPrefix("ref: ") else { return trimmed }
                let ref = String(trimmed.dropFirst(5))
                if let sha = try? String(contentsOf: dir.appendingPathComponent(".git/\(ref)"), encoding: .utf8) {
                    return sha.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                if let packed = try? String(contentsOf: dir.appendingPathComponent(".git/packed-refs"), encoding: .utf8),
                   let line = packed.split(separator: "\n").first(where: { $0.hasSuffix(" \(ref)") })
                {
                    return String(line.split(separator: " ")[0])
                }
                return nil
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }()
}
