import Foundation

/// What machine a run measured on: enough to tell two hosts' numbers apart.
///
/// The CPU identity (vendor, family, model, stepping, microcode) decides whether hardware numbers
/// of two runs may be compared at all: same-run ratios are not portable across
/// microarchitectures (a lock-prefixed add costs 2–3× more on one EPYC generation than on
/// another), so `bench-gate` compares them only between runs of the same `fingerprint`. The
/// calibration is a few measured costs that show *how* two hosts differ; it is not identity.
/// Every field added after the first schema is optional, so older documents still decode.
public struct HostInfo: Codable, Hashable, Sendable {
    public var hostname: String
    /// The marketing name (`model name`); often generic on cloud VMs ("AMD EPYC").
    public var cpuModel: String
    public var logicalCores: Int
    public var memoryBytes: UInt64
    public var kernel: String
    public var os: String
    /// `AuthenticAMD`, `GenuineIntel`, or on ARM the implementer code (`0x41`).
    public var cpuVendor: String?
    /// x86 `cpu family` (25 = Zen 3/4, 26 = Zen 5, 6 = most Intel cores); ARM: the architecture.
    public var cpuFamily: Int?
    /// x86 `model`; ARM: the part number.
    public var cpuModelNumber: Int?
    /// x86 `stepping`; ARM: variant × 16 + revision.
    public var cpuStepping: Int?
    /// The microcode revision as the kernel reports it (`0x1000065`).
    public var cpuMicrocode: String?
    /// Measured costs of three primitive operations on this host (see `HostCalibration`).
    public var calibration: HostCalibration?

    enum CodingKeys: String, CodingKey {
        case hostname
        case cpuModel = "cpu_model"
        case logicalCores = "logical_cores"
        case
            memoryBytes = "memory_bytes"
        case kernel, os
        case cpuVendor = "cpu_vendor"
        case cpuFamily = "cpu_family"
        case
            cpuModelNumber = "cpu_model_number"
        case cpuStepping = "cpu_stepping"
        case cpuMicrocode = "cpu_microcode"
        case
            calibration
    }

    /// The CPU identity hardware numbers are comparable within, or nil when the document does not
    /// record all of it (documents from before the fingerprint, or a kernel that hides a field).
    /// Setting it fills the five `cpu…` fields it is stored as (nil clears them).
    public var fingerprint: CPUIdentity? {
        get {
            guard let cpuVendor, let cpuFamily, let cpuModelNumber, let cpuStepping, let cpuMicrocode else { return nil }
            return CPUIdentity(vendor: cpuVendor, family: cpuFamily, model: cpuModelNumber, stepping: cpuStepping, microcode: cpuMicrocode)
        }
        set {
            cpuVendor = newValue?.vendor
            cpuFamily = newValue?.family
            cpuModelNumber = newValue?.model
            cpuStepping = newValue?.stepping
            cpuMicrocode = newValue?.microcode
        }
    }

    /// Reads the current host and calibrates it (once; about 30 ms, on first use).
    public static let current: HostInfo = {
        let info = ProcessInfo.processInfo
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let cpu = CPUIdentity.parse(cpuinfo: cpuinfo)
        var uts = utsname()
        uname(&uts)
        func string<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        var host = HostInfo(
            hostname: info.hostName,
            cpuModel: CPUIdentity.field("model name", in: cpuinfo) ?? "unknown",
            logicalCores: info.activeProcessorCount,
            memoryBytes: info.physicalMemory,
            kernel: "\(string(uts.sysname)) \(string(uts.release))",
            os: info.operatingSystemVersionString,
            calibration: HostCalibration.measure()
        )
        host.fingerprint = cpu
        return host
    }()
}
