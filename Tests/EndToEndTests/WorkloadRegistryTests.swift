import Foundation
import Measurement
import XCTest

/// The workload registry is the one list: what bench-gate prints, what the analysis package reads,
/// what the results and docs hold, and every list that must stay written out (Package.swift's `workloads`, CI
/// workflows, scripts) names every workload in it. Each failure names the workload and the file.
final class WorkloadRegistryTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let analysisCopy = "analysis/patternbench_analysis/workloads.json"

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The workloads whose `expected` text does not occur in `text`, as "name (file: expected)".
    static func missing(
        in text: String,
        file: String,
        workloads: [WorkloadDescriptor] = WorkloadRegistry.all,
        _ expected: (WorkloadDescriptor) -> String
    ) -> [String] {
        workloads.filter { !text.contains(expected($0)) }.map { "\($0.name) is missing from \(file): expected \"\(expected($0))\"" }
    }

    /// The first line of `text` that starts with `prefix` (a shell `for x in a b c; do`), its words
    /// separated by single spaces and padded with one, so that `" name "` matches a whole word.
    static func loopWords(in text: String, after prefix: String) -> String {
        let line = text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }
        let words = (line.map(String.init) ?? "").split { " ;|".contains($0) }
        return " " + words.joined(separator: " ") + " "
    }

    func testTheGatePrintsTheRegistryAndTheAnalysisCopyIsIt() throws {
        let r = try ExecutableRunner.run("bench-gate", ["--list-workloads", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try JSONDecoder().decode([WorkloadDescriptor].self, from: Data(r.stdout.utf8)), WorkloadRegistry.all)
        XCTAssertEqual(
            try read(Self.analysisCopy),
            r.stdout,
            "\(Self.analysisCopy) is out of date: bench-gate --list-workloads --json > \(Self.analysisCopy)"
        )
        let table = try ExecutableRunner.run("bench-gate", ["--list-workloads"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdout.split(separator: "\n").count, WorkloadRegistry.all.count + 1, table.stdout)
        XCTAssertEqual(Set(WorkloadRegistry.all.map(\.name)).count, WorkloadRegistry.all.count, "a name registered twice")
    }

    /// The registry's names and factors are the binaries' own: the committed baseline (which the gate
    /// keeps equal to fresh runs) holds each workload's results with exactly the registered factors,
    /// and nothing else; each workload has its guide and its thresholds.
    func testEveryWorkloadHasItsBaselineGuideAndThresholds() throws {
        struct Document: Decodable {
            var workload: String
            var factor_names: [String]
        }
        let baseline = Self.root.appendingPathComponent("results/baseline")
        let stems = Set(
            try FileManager.default.contentsOfDirectory(atPath: baseline.path).filter { $0.hasSuffix(".json") }
                .map { String($0.dropLast(5)) }
        )
        XCTAssertEqual(stems.subtracting(WorkloadRegistry.all.map(\.name)), [], "results/baseline holds a workload the registry lacks")
        let thresholds = try read("results/thresholds.json")
        for w in WorkloadRegistry.all {
            let path = "results/baseline/\(w.name).json"
            guard let data = try? Data(contentsOf: Self.root.appendingPathComponent(path)) else {
                XCTFail("\(w.name) is missing from results/baseline: record it (CONTRIBUTING.md, \"Record a baseline\")")
                continue
            }
            let document = try JSONDecoder().decode(Document.self, from: data)
            XCTAssertEqual(document.workload, w.name, path)
            XCTAssertEqual(document.factor_names, w.factors.map(\.name), "\(path): the registry's factors for \(w.name) differ")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(w.documentation).path), w.documentation)
        }
        XCTAssertEqual(Self.missing(in: thresholds, file: "results/thresholds.json") { "\"workload\": \"\($0.name)\"" }, [])
    }

    /// The loops that derive their list from the registry (`scripts/workloads`), by file.
    static let derivedLoops = [
        (".github/workflows/sharded-bench.yml", "for bench in"), ("docs/analysis.md", "for bench in"),
        (".github/workflows/macos.yml", "for bench in"), ("scripts/ab-gate.sh", "for tool in"),
        ("scripts/gate-experiment.sh", "for tool in"), ("scripts/nightly-perf-gate.sh", "for bench in"),
    ]

    static func readsTheRegistry(_ text: String, loop: String) -> Bool {
        loopWords(in: text, after: loop).contains(" $(scripts/workloads")
    }

    /// gate-run.sh runs every workload's default matrix from the registry, except those its `case`
    /// leaves out, which it must run by name with their flags: the workloads it runs neither way.
    static func gateRunMissing(_ gateRun: String, workloads: [WorkloadDescriptor] = WorkloadRegistry.all) -> [String] {
        let loop = gateRun.components(separatedBy: "for name in $(\"$root/scripts/workloads\")").dropFirst().first
        let skipLine = loop?.split(separator: "\n").first { $0.contains(") ;;") } ?? ""
        let byName = Set((skipLine.split(separator: ")").first ?? "").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
        return missing(in: gateRun, file: "scripts/gate-run.sh", workloads: workloads.filter { loop == nil || byName.contains($0.name) }) {
            "run \($0.executable) "
        }
    }

    /// The lists that must stay written out name every workload.
    func testEveryWrittenOutListNamesEveryWorkload() throws {
        // Package.swift makes each workload's targets, products and the end-to-end tests'
        // dependencies from one entry of its `workloads` list.
        let package = try read("Package.swift")
        let list = try XCTUnwrap(package.components(separatedBy: "let workloads: [WorkloadTargets] = [").dropFirst().first)
        let entries = list.components(separatedBy: "\n]\n").first ?? ""
        var missing = Self.missing(in: entries, file: "Package.swift (workloads)") { "tool: \"\($0.name)\"" }
        missing += Self.missing(in: entries, file: "Package.swift (workloads, module)") { "module: \"\($0.module)\"" }
        missing += Self.gateRunMissing(try read("scripts/gate-run.sh"))
        for (file, loop) in Self.derivedLoops where !Self.readsTheRegistry(try read(file), loop: loop) {
            missing.append("\(file): its `\(loop)` loop must read its list from scripts/workloads, not name the workloads")
        }
        let open = WorkloadRegistry.all.filter(\.openToVariants)
        missing += Self.missing(
            in: Self.loopWords(in: try read("README.md"), after: "SuiteMain.run(suite)"),
            file: "README.md (SuiteMain.run(suite) // my-bench …)",
            workloads: open
        ) { " \($0.name) " }
        XCTAssertEqual(missing, [])
    }

    /// The text of the first block `scripts/generate-docs` writes of `kind` in `text` ("" when there is none).
    static func generated(in text: String, kind: String) -> String {
        guard let start = text.range(of: "<!-- generated by scripts/generate-docs: \(kind)") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "<!-- end generated -->")?.lowerBound ?? rest.endIndex)])
    }

    /// The docs' lists of workloads are generated from the registry (README's tools, results/README.md's
    /// names, docs/regression-gate.md's baseline contents, each guide's baseline table) and so is the
    /// claim count: `scripts/generate-docs --check` finds every block as it would write it now, and
    /// each list names every workload. results/README.md's factor columns are written by hand (the
    /// scaffold adds a row): each workload has its row.
    func testTheGeneratedDocsAreUpToDateAndNameEveryWorkload() throws {
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/generate-docs").path, "--check"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "run scripts/generate-docs: \(stderr)")
        let readme = try read("README.md")
        let results = try read("results/README.md")
        var missing = Self.missing(in: Self.generated(in: readme, kind: "tools"), file: "README.md (tools)") { "`\($0.executable)`" }
        missing += Self.missing(in: Self.generated(in: results, kind: "workload-names"), file: "results/README.md (names)") {
            "`\($0.name)`"
        }
        missing += Self.missing(in: results, file: "results/README.md (factor columns)") { "\n| \($0.name) |" }
        missing += Self.missing(
            in: Self.generated(in: try read("docs/regression-gate.md"), kind: "baseline-contents"),
            file: "docs/regression-gate.md (baseline contents)"
        ) { "\n| \($0.name) |" }
        for w in WorkloadRegistry.all where !(try read(w.documentation)).contains("generate-docs: baseline workload=\(w.name) ") {
            missing.append("\(w.documentation) has no generated baseline table of \(w.name)")
        }
        XCTAssertFalse(Self.generated(in: readme, kind: "claims").isEmpty, "README.md lost its generated claim count")
        XCTAssertEqual(missing, [])
    }

    /// scripts/workloads, which the scripts' and workflows' loops read, prints the registry.
    func testTheScriptsListIsTheRegistry() throws {
        for (flag, expected) in [([], WorkloadRegistry.all.map(\.name)), (["--executables"], WorkloadRegistry.all.map(\.executable))] {
            let process = Process()
            let pipe = Pipe()
            process.executableURL = Self.root.appendingPathComponent("scripts/workloads")
            process.arguments = flag
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            XCTAssertEqual(output.split(separator: "\n").map(String.init), expected, "scripts/workloads \(flag)")
        }
    }

    /// The workloads a user's executable offers are exactly the registry's open ones.
    func testAUsersExecutableOffersTheOpenWorkloads() throws {
        let r = try ExecutableRunner.run("suite-fixture", ["--help"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let offered = Set(
            r.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
        )
        XCTAssertEqual(offered.subtracting(["gate"]), Set(WorkloadRegistry.all.filter(\.openToVariants).map(\.name)), r.stdout)
    }

    /// The control: a list without one workload is reported with its name and file, and a loop line
    /// is read word by word (a `cache` inside `cache-trace` does not count).
    func testAListLackingAWorkloadIsNamed() {
        let lacking = "run bench-throttle --quiet\nrun bench-atomics --quiet\n"
        let two = Array(WorkloadRegistry.all.prefix(3))
        XCTAssertEqual(
            Self.missing(in: lacking, file: "x.sh", workloads: two) { "run \($0.executable) " },
            ["clock is missing from x.sh: expected \"run bench-clock \""]
        )
        let loop = Self.loopWords(in: "  for bench in throttle cache-trace atomics; do\n  clock\n", after: "for bench in")
        XCTAssertEqual(Self.missing(in: loop, file: "y.yml", workloads: two) { " \($0.name) " }.count, 1)
        // A derived loop that names the workloads again, and a gate-run.sh whose loop leaves out a
        // workload it does not run by name (or that lost its loop), are named.
        XCTAssertFalse(Self.readsTheRegistry("  for bench in throttle atomics; do", loop: "for bench in"))
        XCTAssertTrue(Self.readsTheRegistry("  for bench in $(scripts/workloads); do", loop: "for bench in"))
        let gateRun = """
            run bench-throttle --quiet --output "$out/gate"
            for name in $("$root/scripts/workloads"); do
              case "$name" in
                throttle | clock) ;;
                *) run "bench-$name" --quiet --output "$out/gate" ;;
              esac
            done
            """
        XCTAssertEqual(
            Self.gateRunMissing(gateRun, workloads: two),
            ["clock is missing from scripts/gate-run.sh: expected \"run bench-clock \""]
        )
        XCTAssertEqual(Self.gateRunMissing("run bench-throttle --quiet\n", workloads: two).count, 2)
        // A generated block is read up to its end marker, and a file without the block lists nothing.
        let doc = "x `bench-clock`\n<!-- generated by scripts/generate-docs: tools -->\n| `bench-throttle` |\n<!-- end generated -->\n"
        XCTAssertEqual(
            Self.missing(in: Self.generated(in: doc, kind: "tools"), file: "z.md", workloads: two) { "`\($0.executable)`" }.count,
            2
        )
        XCTAssertEqual(Self.generated(in: "no block", kind: "tools"), "")
    }
}
