import OptionalPackages
import Testing
import XCTest

/// The one way a test asks for an optional Debian package: installed, the test runs; missing, it
/// is skipped with a line naming the package; missing under CI, it fails. Checked with packages
/// whose presence the test decides, for XCTest's `require` and Swift Testing's `.requires` alike.
final class OptionalPackageTests: XCTestCase {
    let missing = OptionalPackage(debianPackage: "pb-not-a-package", provides: "nothing real") { false }
    let installed = OptionalPackage(debianPackage: "pb-always-there", provides: "nothing real") { true }

    func testMissingIsASkipLocallyAndAFailureUnderCI() throws {
        XCTAssertEqual(try missing.check(environment: [:]), false)
        for value in ["", "0", "false", "FALSE"] {
            XCTAssertEqual(try missing.check(environment: ["CI": value]), false, "CI=\(value) is not CI")
        }
        // The control: under CI the same absence throws, naming the package to install.
        for value in ["true", "1", "yes"] {
            XCTAssertThrowsError(try missing.check(environment: ["CI": value])) { error in
                XCTAssertTrue("\(error)".contains("install the Debian package `pb-not-a-package`"), "\(error)")
            }
        }
    }

    func testInstalledRunsWithOrWithoutCI() throws {
        XCTAssertEqual(try installed.check(environment: [:]), true)
        XCTAssertEqual(try installed.check(environment: ["CI": "true"]), true)
    }

    func testXCTestRequireSkipsWithOneLineOrFailsUnderCI() throws {
        XCTAssertNoThrow(try require(installed, environment: ["CI": "true"]))
        do {
            try require(missing, environment: [:])
            XCTFail("a missing package must skip")
        } catch let skip as XCTSkip {
            let message = skip.message ?? ""
            XCTAssertEqual(message.split(separator: "\n").count, 1, message)
            XCTAssertTrue(message.contains("install the Debian package `pb-not-a-package`"), message)
        }
        XCTAssertThrowsError(try require(missing, environment: ["CI": "true"])) { error in
            XCTAssertTrue(error is OptionalPackage.Missing, "under CI a missing package is a failure, not a skip: \(error)")
        }
    }
}

/// Swift Testing's side: the trait's condition, evaluated as the runner evaluates it.
@Suite struct OptionalPackageTraitTests {
    let missing = OptionalPackage(debianPackage: "pb-not-a-package", provides: "nothing real") { false }
    let installed = OptionalPackage(debianPackage: "pb-always-there", provides: "nothing real") { true }

    @Test func theTraitSkipsLocallyAndFailsUnderCI() async throws {
        #expect(try await ConditionTrait.requires(installed, environment: ["CI": "true"]).evaluate())
        let skipped = ConditionTrait.requires(missing, environment: [:])
        #expect(try await !skipped.evaluate())
        #expect(skipped.comments.map(\.rawValue) == ["needs nothing real; install the Debian package `pb-not-a-package`"])
        await #expect(throws: OptionalPackage.Missing.self) {
            try await ConditionTrait.requires(missing, environment: ["CI": "true"]).evaluate()
        }
    }
}
