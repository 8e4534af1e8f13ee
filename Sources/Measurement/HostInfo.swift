import Foundation

/// What machine a run measured on: enough to tell two hosts' numbers apart.
public struct HostInfo: Codable, Hashable, Sendable {
    public var hostname: String
    public var cpuModel: String
    public var logicalCores: Int
    public var memoryBytes: UInt64
    public var kernel: String
    public var os: String

    enum CodingKeys: String, CodingKey {
        case hostname, cpuModel = "cpu_model", logicalCores = "logical_cores",
             memoryBytes = "memory_bytes", kernel, os
    }

    public init(hostname: String, cpuModel: String, logicalCores: Int, memoryBytes: UInt64, kernel: String, os: String) {
        self.hostname = hostname
        self.cpuModel = cpuModel
        self.logicalCores = logicalCores
        self.memoryBytes = memoryBytes
        self.kernel = kernel
        self.os = os
    }

    /// Reads the current host (once; it does not change during a run).
    public static let current: HostInfo = {
        let info = ProcessInfo.processInfo
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":")
        {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var uts = utsname()
        uname(&uts)
        func string<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return HostInfo(
            hostname: info.hostName,
            cpuModel: cpu,
            logicalCores: info.activeProcessorCount,
            memoryBytes: info.physicalMemory,
            kernel: "\(string(uts.sysname)) \(string(uts.release))",
            os: info.operatingSystemVersionString
        )
    }()
}
