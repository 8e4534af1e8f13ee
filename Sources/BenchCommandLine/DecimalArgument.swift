import ArgumentParser

/// Parses a number flag as a plain decimal (`0.5`, `100`, `1e-3`), the `transform:` of every
/// `Double` option.
///
/// ArgumentParser's own `Double` parsing is `Double(String)`, which also takes Swift's other float
/// literals: `--duration 0x10` ran for 16 s and `0x1p-2` meant 0.25. No one types those on purpose,
/// and a run that silently read another number than the one intended is worse than an error. Range
/// checks (positive, finite, within limits) stay with each tool's validation.
package func decimalArgument(_ text: String) throws -> Double {
    let allowed = Set("0123456789+-.eE")
    guard !text.isEmpty, text.allSatisfy({ allowed.contains($0) }), let value = Double(text) else {
        throw ValidationError("not a decimal number")
    }
    return value
}
