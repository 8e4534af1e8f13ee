import Foundation

/// The identity of a CPU as far as performance is concerned: two hosts with the same identity run
/// the same microarchitecture with the same microcode, so their same-run ratios are comparable.
///
/// Match rule (used by `bench-gate`): vendor, family, model, stepping *and* microcode all equal.
/// Microcode is part of it because updates change the cost of exactly the operations the gate
/// measures (fences, lock-prefixed instructions, speculation mitigations). Core count, memory and
/// the calibration are not: they describe the host, they do not decide comparability.
public struct CPUIdentity: Codable, Hashable, Sendable, CustomStringConvertible {
    public var vendor: String
    public var family: Int
    public var model: Int
    public var stepping: Int
    public var microcode: String

    public var description: String {
        "\(vendor) family \(family) model \(model) stepping \(stepping) microcode \(microcode)"
    }

    /// Parses the first processor of `/proc/cpuinfo` (x86, or ARM's implementer/part/revision).
    /// Nil when a field is missing: an unknown identity never matches anything.
    static func parse(cpuinfo: String) -> CPUIdentity? {
        func int(_ key: String) -> Int? {
            guard let text = field(key, in: cpuinfo) else { return nil }
            return text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        }
        if let vendor = field("vendor_id", in: cpuinfo), let family = int("cpu family"), let model = int("model"),
            let stepping = int("stepping")
        {
            return CPUIdentity(
                vendor: vendor,
                family: family,
                model: model,
                stepping: stepping,
                microcode: field("microcode", in: cpuinfo) ?? "unknown"
            )
        }
        if let implementer = field("CPU implementer", in: cpuinfo), let architecture = int("CPU architecture"),
            let part = int("CPU part"), let variant = int("CPU variant"), let revision = int("CPU revision")
        {
            // ARM kernels do not print a microcode revision; the revision fields stand for it.
            return CPUIdentity(
                vendor: implementer,
                family: architecture,
                model: part,
                stepping: variant * 16 + revision,
                microcode: "none"
            )
        }
        return nil
    }

    /// The value of `key` on its first line in `/proc/cpuinfo` text (`key<tabs>: value`).
    static func field(_ key: String, in cpuinfo: String) -> String? {
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            if name == key { return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
