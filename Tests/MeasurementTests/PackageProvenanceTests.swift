import Foundation
import TestSupport
import XCTest

@testable import Records

/// The user's package a run names: its manifest's name, and its commit only when its folder is
/// the top of a git checkout.
final class PackageProvenanceTests: XCTestCase {
    func folder() throws -> URL {
        URL(fileURLWithPath: try temporaryFolder("provenance"), isDirectory: true)
    }

    /// Writes a one-line Package.swift for a package `name` into `folder`.
    func writeManifest(named name: String, in folder: URL) throws {
        try "let package = Package(name: \"\(name)\")\n".write(
            to: folder.appendingPathComponent("Package.swift"),
            atomically: true,
            encoding: .utf8
        )
    }

    func git(_ arguments: [String], in folder: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-C", folder.path, "-c", "user.name=t", "-c", "user.email=t@example.invalid"] + arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("git unavailable: \(arguments)") }
    }

    func testTheManifestsNameIsRead() {
        XCTAssertEqual(PackageProvenance.packageName(inManifest: "let package = Package(\n    name: \"MyBench\",\n"), "MyBench")
        XCTAssertNil(PackageProvenance.packageName(inManifest: "let x = 1"))
    }

    func testACheckoutGivesItsCommitAndAFolderInsideAnotherRepositoryDoesNot() throws {
        let root = try folder()
        try writeManifest(named: "MyBench", in: root)
        // Not a checkout: a name, no commit.
        var p = PackageProvenance.of(packageAt: root)
        XCTAssertEqual(p.name, "MyBench")
        XCTAssertNil(p.gitCommit)
        // A checkout: its HEAD, clean, then dirty.
        try git(["init", "-q"], in: root)
        try git(["add", "Package.swift"], in: root)
        try git(["commit", "-q", "-m", "first"], in: root)
        let head = try XCTUnwrap(PackageProvenance.git(["rev-parse", "HEAD"], in: root))
        p = PackageProvenance.of(packageAt: root)
        XCTAssertEqual(p.gitCommit, head)
        XCTAssertEqual(p.gitDirty, false)
        try "// changed\n".write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(PackageProvenance.of(packageAt: root).gitDirty, true)
        // A package folder inside that repository is not its top: unknown, not the outer commit.
        let inner = root.appendingPathComponent("Inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try writeManifest(named: "Inner", in: inner)
        XCTAssertNil(PackageProvenance.of(packageAt: inner).gitCommit)
    }

    func testTheExecutablesPackageIsTheNearestFolderWithAManifest() throws {
        let root = try folder()
        try writeManifest(named: "MyBench", in: root)
        let bin = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let exe = bin.appendingPathComponent("my-bench")
        try Data().write(to: exe)
        XCTAssertEqual(PackageProvenance.ofExecutable(exe)?.name, "MyBench")
        XCTAssertEqual(PackageProvenance.ofExecutable(exe)?.path, root.resolvingSymlinksInPath().path)
        XCTAssertNil(PackageProvenance.ofExecutable(URL(fileURLWithPath: "/usr/bin/env")), "no manifest above /usr/bin")
    }

    func testADocumentWithoutAUserPackageStillReads() throws {
        let json =
            #"{"git_commit":null,"swift_version":"6.3","build_configuration":"debug","host":{"hostname":"h","cpu_model":"c","logical_cores":2,"memory_bytes":1,"kernel":"k","os":"o"},"command_line":[],"parameters":{}}"#
        let meta = try JSONDecoder().decode(RunMetadata.self, from: Data(json.utf8))
        XCTAssertNil(meta.userPackage)
    }
}
