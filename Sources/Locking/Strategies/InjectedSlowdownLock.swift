import CLockReference
import Foundation

/// A test-only lock whose locked operation costs 25 % more than its base's: every fourth
/// acquisition is followed by one more acquisition of the base lock that holds it for the cell's
/// critical-section work again (the same `clr_spin` iterations, which touch no shared state).
///
/// It exists to prove the regression gate works: `PATTERNBENCH_INJECT_REGRESSION=atomics:<variant>`
/// swaps it in under the variant's own name, so a run looks exactly like a slower build of the
/// same code. A run with an injection says so in its notes; it is never used otherwise.
///
/// Why the extra acquisition repeats the critical-section work: a slowdown of only the lock's own
/// work (an empty extra acquisition) is +25 % of a `cs_work_ns=0` cell but only +4.5–6.4 % of a
/// single-thread `cs_work_ns=50` cell, where the busy work dominates — below that cell's A/A noise
/// floor, so the calibration target "a 25 % slowdown is found in every cell" was not a 25 %
/// slowdown there. Repeating the held work makes every cell's locked operation 25 % dearer.
package final class InjectedSlowdownLock<Base: LockStrategy>: LockStrategy, @unchecked Sendable {
    let base = Base()
    /// The cell's critical-section work in `clr_spin` iterations, read when the lock is made
    /// (`RegressionInjection.criticalSectionIterations`, bound by the contention run).
    let heldWork: UInt64
    // Only read and written while holding `base`.
    var acquisitions: UInt64 = 0

    package init() { heldWork = RegressionInjection.criticalSectionIterations }

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        var extra = false
        let result = base.withLock { () -> Result in
            acquisitions &+= 1
            extra = acquisitions & 3 == 0
            return body()
        }
        if extra {
            let work = heldWork
            if work == 0 { base.withLock {} } else { base.withLock { _ = clr_spin(work) } }
        }
        return result
    }
}

/// Which variants a test run deliberately slows down (`PATTERNBENCH_INJECT_REGRESSION`).
package enum RegressionInjection {
    package static let variable = "PATTERNBENCH_INJECT_REGRESSION"

    /// What the note of an injected run says the injection does.
    package static let effect =
        "every fourth locked operation takes the lock once more and repeats the cell's critical-section work: 25 % more locked work per operation"

    /// The critical-section work (in `clr_spin` iterations) of the cell whose shared objects are
    /// being made on this thread; `InjectedSlowdownLock` reads it when made. Bound around making the
    /// targets (`ContentionTargets`), so it never leaks into another cell.
    @TaskLocal package static var criticalSectionIterations: UInt64 = 0

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
