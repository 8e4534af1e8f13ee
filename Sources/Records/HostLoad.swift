import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How busy the host was: the kernel's 1-minute load average (runnable plus uninterruptible
/// threads, exponentially averaged), read when a run starts and when it ends.
///
/// Why it is recorded: on a shared host the other processes' load moves live numbers far more than
/// most code changes do, and it is invisible in the numbers themselves. Two runs measured at very
/// different loads are still compared, but `bench-gate` and `pb-analysis compare` say so
/// (`HostLoadCheck`), with both sides' loads.
public enum HostLoad {
    /// The 1-minute load average now: the first field of `/proc/loadavg` (Linux), else
    /// `getloadavg(3)` (macOS, the BSDs); nil when neither answers.
    public static func oneMinute() -> Double? {
        if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first, let value = Double(first), value.isFinite, value >= 0
        {
            return value
        }
        var loads = [Double](repeating: 0, count: 1)
        return getloadavg(&loads, 1) == 1 ? loads[0] : nil
    }
}
