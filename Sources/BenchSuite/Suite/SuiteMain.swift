import BenchCommandLine
import Foundation
import Records

/// The entry point of a user's benchmark executable: `my-bench <workload> [bench-* flags]`.
///
/// `my-bench throttle --variant every-3,signal-adaptive --mode live` is `bench-throttle` with the
/// user's variants registered: the same flags, the same files, the same exit codes.
public enum SuiteMain {
    /// The workloads a user's executable offers, by the name that selects them.
    static let workloads: [(name: String, summary: String, run: @Sendable ([String], String) -> Never)] = [
        (
            "throttle", "UI-update throttlers under message bursts (UpdateThrottler)",
            { BenchMain.run(ThrottleCommand.self, arguments: $0, toolName: $1) }
        ),
        ("atomics", "locks and atomic wrappers under contention", { BenchMain.run(AtomicsCommand.self, arguments: $0, toolName: $1) }),
        ("cache", "count-bounded caches before a slow store", { BenchMain.run(CacheCommand.self, arguments: $0, toolName: $1) }),
        ("readiness", "launch coordinators on one main executor", { BenchMain.run(ReadinessCommand.self, arguments: $0, toolName: $1) }),
        (
            "group", "fan-out and fan-in strategies for a login flow (FanOutShape)",
            { BenchMain.run(GroupCommand.self, arguments: $0, toolName: $1) }
        ),
        (
            "lifecycle", "app lifecycle strategies under iOS's rules (LifecyclePolicy)",
            { BenchMain.run(LifecycleCommand.self, arguments: $0, toolName: $1) }
        ),
        (
            "gate", "check results folders against thresholds and a baseline (bench-gate)",
            {
                BenchMain.run(GateCommand.self, usageExitCode: 2, arguments: $0, toolName: $1)
            }
        ),
    ]

    /// Installs `suite` and runs the workload named by the first argument with the rest.
    public static func run(_ suite: Suite, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let tool = (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }) ?? "bench"
        Suite.current = suite
        // A user's executable: its results name the user's package beside PatternBench's commit.
        RunMetadata.recordUserPackage()
        ReadinessCommand.runProbeChildIfAsked()
        LifecycleCommand.runChildIfAsked()
        guard let first = arguments.first, !["-h", "--help", "help"].contains(first) else {
            print(usage(tool), terminator: "")
            exit(arguments.isEmpty ? 64 : 0)
        }
        guard let workload = workloads.first(where: { $0.name == first }) else {
            FileHandle.standardError.write(
                Data(
                    "\(tool): error: unknown workload '\(BenchMain.errorLine(first))'; known: \(workloads.map(\.name).joined(separator: ", "))\n"
                        .utf8
                )
            )
            exit(64)
        }
        workload.run(Array(arguments.dropFirst()), "\(tool) \(workload.name)")
    }

    static func usage(_ tool: String) -> String {
        var text = "usage: \(tool) <workload> [options]   (\(tool) <workload> --help for the options)\n\nworkloads:\n"
        let width = (workloads.map(\.name.count).max() ?? 0) + 2
        for w in workloads {
            text += "  \(w.name)\(String(repeating: " ", count: width - w.name.count))\(w.summary)\n"
        }
        return text
    }
}
