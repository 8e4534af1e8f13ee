import Foundation
import OptionalPackages
import XCTest

/// README's quick start is what a newcomer runs first, so what it shows must be what they see: the
/// excerpt of `swift run bench-throttle`'s ranking and the line the run ends with are checked here
/// against real runs, so a change to the model, the table or the output paths fails this test
/// instead of leaving the README stale. The excerpt is checked against the default run the gate's
/// tests make anyway (`SharedRuns`, the same command with `--quiet --output`, which change only
/// stderr); the last line against a run of one scenario (0.3 s in debug) from a fresh folder.
final class ReadmeQuickStartTests: XCTestCase {
    /// README's code blocks under "## Quick start", in order (the commands, then the excerpt).
    static func quickStartBlocks(_ readme: String) -> [[String]] {
        guard let start = readme.range(of: "\n## Quick start\n") else { return [] }
        let section = readme[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        var blocks: [[String]] = []
        var current: [String]?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let done = current { blocks.append(done) }
                current = current == nil ? [] : nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The lines of `excerpt` missing from `output` or out of its order (an excerpt may leave rows
    /// out, but each line it keeps is a whole line of the output).
    static func linesNotInOrder(_ excerpt: [String], of output: String) -> [String] {
        var rest = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var missing: [String] = []
        for line in excerpt {
            if let i = rest.firstIndex(of: line) { rest = rest[(i + 1)...] } else { missing.append(line) }
        }
        return missing
    }

    func testTheExcerptAndTheLastLineAreWhatBenchThrottlePrints() throws {
        let readme = try String(contentsOf: WorkloadTool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.quickStartBlocks(readme)
        XCTAssertEqual(blocks.first, ["swift run bench-throttle", "swift test"], "README's quick start lost its two commands")
        guard blocks.count >= 2, blocks[1].count >= 4 else {
            return XCTFail("README's quick start has no excerpt of bench-throttle's output")
        }

        let run = try SharedRuns.run(defaultOf: "throttle")
        XCTAssertEqual(run.result.status, 0, run.result.stderr)
        XCTAssertEqual(Self.linesNotInOrder(blocks[1], of: run.result.stdout), [], "README's excerpt is not what bench-throttle prints")

        let prose = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let said = try XCTUnwrap(prose.range(of: "ends with their paths: `"), "README no longer says which line the run ends with")
        let paths = String(prose[said.upperBound...].prefix { $0 != "`" })
        XCTAssertEqual(paths, "results: results/runs/<run_id>/throttle.csv and results/runs/<run_id>/throttle.json")
        // Without --output, from the folder it is started in (here a fresh one: its results/runs/ is this run's alone).
        let cwd = try temporaryFolder("quick-start")
        let short = try ExecutableRunner.run("bench-throttle", ["--scenario", "storm-slow"], cwd: cwd)
        XCTAssertEqual(short.status, 0, short.stderr)
        let last = try XCTUnwrap(short.stderr.split(separator: "\n").last.map(String.init))
        let folders = try FileManager.default.contentsOfDirectory(atPath: cwd.appendingPathComponent("results/runs").path)
        XCTAssertEqual(folders.count, 1, "\(folders)")
        XCTAssertEqual(last, paths.replacingOccurrences(of: "<run_id>", with: folders.first ?? "?"))
    }

    /// What README says a fresh machine's `swift test` prints for a missing optional package, and
    /// what CI's prints instead, are the messages `OptionalPackage` gives (a test that needs one asks
    /// through it, so these are the lines a skipped or failed test shows).
    func testTheSkipAndCILinesAreTheOnesTheTestsPrint() throws {
        let readme = try String(contentsOf: WorkloadTool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let prose = readme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let faketime = OptionalPackage.faketime
        XCTAssertTrue(prose.contains("skipped: \"\(faketime.skipMessage)\""), faketime.skipMessage)
        XCTAssertTrue(prose.contains("Test skipped - \(OptionalPackage.jemalloc.skipMessage)"), OptionalPackage.jemalloc.skipMessage)
        let absent = OptionalPackage(debianPackage: faketime.debianPackage, provides: faketime.provides) { false }
        XCTAssertThrowsError(try absent.check(environment: ["CI": "true"])) { error in
            XCTAssertTrue(prose.contains("`` \(error) ``"), "README does not quote CI's failure: \(error)")
        }
    }

    /// The control: an excerpt whose figure moved, or whose rows swapped, is found.
    func testAStaleExcerptIsFound() {
        let output = "title\n1  a  44.1\n2  b  62.9\n"
        XCTAssertEqual(Self.linesNotInOrder(["title", "2  b  62.9"], of: output), [])
        XCTAssertEqual(Self.linesNotInOrder(["title", "1  a  44.2"], of: output), ["1  a  44.2"])
        XCTAssertEqual(Self.linesNotInOrder(["2  b  62.9", "1  a  44.1"], of: output), ["1  a  44.1"])
        let readme = "# X\n\n## Quick start\n\n```\nrun\n```\n\ntext\n\n```\nout\n```\n\n## Next\n\n```\nno\n```\n"
        XCTAssertEqual(Self.quickStartBlocks(readme), [["run"], ["out"]])
    }
}
