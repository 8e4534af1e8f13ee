import Foundation
import Testing
import XCTest

extension XCTestCase {
    /// Skips the test (`XCTSkip`, naming the Debian package) when `package` is missing, or fails
    /// it under CI (`OptionalPackage.check`).
    public func require(_ package: OptionalPackage, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard try package.check(environment: environment) else { throw XCTSkip(package.skipMessage) }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where `package` is installed: skipped with one line naming the
    /// Debian package when it is missing, failed under CI (the condition throws
    /// `OptionalPackage.Missing`, which Swift Testing records as the test's issue).
    public static func requires(
        _ package: OptionalPackage,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Self {
        .enabled(Comment(rawValue: package.skipMessage)) { try package.check(environment: environment) }
    }
}
