import Foundation

/// A mark that one test's run hands down to every process it starts (an environment variable the
/// children inherit), so that a check for children left behind looks at that run's processes only.
/// CI runs the analysis tests, which start the same tools, beside `swift test`: a check that
/// scanned the whole machine would find their children and fail for nothing.
struct RunMark {
    let token = UUID().uuidString

    /// The environment to run the tool with (`ExecutableRunner.run(_:_:environment:)`).
    var environment: [String: String] { ["PATTERNBENCH_TEST_RUN": token] }

    /// "pid: command line" of each process still running whose command line contains every one of
    /// `parts` and whose environment carries this mark.
    func processes(commandLineContaining parts: [String]) -> [String] {
        let entry = Data("PATTERNBENCH_TEST_RUN=\(token)".utf8)
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }
        return pids.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            guard parts.allSatisfy({ line.contains($0) }) else { return nil }
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            return environment.split(separator: 0).contains { Data($0) == entry } ? "\(pid): \(line)" : nil
        }
    }
}
