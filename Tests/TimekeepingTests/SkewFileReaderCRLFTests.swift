import XCTest

@testable import Timekeeping

/// Files written on Windows end lines with "\r\n", which Swift reads as one Character.
final class SkewFileReaderCRLFTests: XCTestCase {
    func testCRLFLinesParse() throws {
        let events = try SkewFileReader.parse("at_s,kind,value,duration_s\r\n10,step,-1,\r\n20,suspend,,5\r\n")
        XCTAssertEqual(events.count, 2)
    }
}
