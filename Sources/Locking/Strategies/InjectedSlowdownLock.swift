import Foundation

/// A test-only lock that does 25 % more work than its base: every fourth acquisition takes and
/// releases the base lock one extra time.
///
/// It exists to prove the regression gate works: `PATTERNBENCH_INJECT_REGRESSION=atomics:<variant>`
/// swaps it in under the variant's own name, so a run looks exactly like a slower build of the
/// same code. A run with an injection says so in its notes; it is never used otherwise.
package final class InjectedSlowdownLock<Base: LockStrategy>: LockStrategy, @unchecked Sendable {
    let base = Base()
    // Only read and written while holding `base`.
    var acquisitions: UInt64 = 0

    package init() {}

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        var extra = false
        let result = base.withLock { () -> Result in
            acquisitions &+= 1
            extra = acquisitions & 3 == 0
            return body()
        }
        if extra { base.withLock {} }
        return result
    }
}

/// Which variants a test run deliberately slows down (`PATTERNBENCH_INJECT_REGRESSION`).
package enum RegressionInjection {
    package static let variable = "PATTERNBENCH_INJECT_REGRESSION"

    /// The `atomics:<variant>` entries of the variable.
    package static let slowedVariants: Set<String> = {
        let value = ProcessInfo.processInfo.environment[variable] ?? ""
        return Set(
            value.split(separator: ",").compactMap { entry in
                let parts = entry.split(separator: ":")
                return parts.count == 2 && parts[0] == "atomics" ? String(parts[1]) : nil
            }
        )
    }()

    package static func slows(_ variant: LockVariant) -> Bool { slowedVariants.contains(variant.name) }
}
