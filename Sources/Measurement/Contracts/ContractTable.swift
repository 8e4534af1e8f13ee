import Foundation

/// docs/your-own-variant.md's contract table, read by each role's tests: every declared rule must
/// have its row (`ContractRule.tableRow`), so the page says what the harness checks.
package enum ContractTable {
    /// The page, found from a test file's `#filePath` (`Tests/<Target>/<File>.swift`).
    package static func page(besideTest filePath: String) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/your-own-variant.md"), encoding: .utf8)
    }

    /// Those of `rules` the table does not list.
    package static func undocumented(_ rules: [ContractRule], besideTest filePath: String) throws -> [ContractRule] {
        let page = try page(besideTest: filePath)
        return rules.filter { !page.contains($0.tableRow) }
    }
}
