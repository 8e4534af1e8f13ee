import Foundation
import XCTest

extension XCTestCase {
    /// A new, empty folder under the system's temporary directory, named `label`, the process and a
    /// random number (tests of one run, and runs side by side, never share one), removed with
    /// everything in it when the test ends.
    public func temporaryFolder(_ label: String = "patternbench") throws -> String {
        let path = NSTemporaryDirectory() + "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
