import Foundation

/// docs/your-own-variant.md's contract table, read by each role's tests: every declared rule must
/// have its row (`ContractRule.tableRow`), so the page says what the harness checks.
package enum ContractTable {
    /// The page, found from a test file's `#filePath` (`Tests/<Target>/<File>.swift`).
    package static func page(besideTest filePath: String) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/your-own-variant.md"), encoding: .utf8)
    }

    /// The table's rows as rules (its first two columns), in the page's order: what a test
    /// compares with every role's declarations, so a row no rule declares is caught too.
    package static func listedRules(in page: String) -> [ContractRule] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| role | rule | checked |") }) else { return [] }
        return lines[(header + 2)...].prefix { $0.hasPrefix("| ") }.compactMap { line in
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            return cells.count >= 2 ? ContractRule(role: cells[0], statement: cells[1]) : nil
        }
    }

    /// Those of `rules` the table does not list.
    package static func undocumented(_ rules: [ContractRule], besideTest filePath: String) throws -> [ContractRule] {
        let page = try page(besideTest: filePath)
        return rules.filter { !page.contains($0.tableRow) }
    }
}
