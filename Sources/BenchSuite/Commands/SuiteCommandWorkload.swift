import BenchCommandLine
import FanOut
import Locking
import Measurement
import Readiness
import Throttling

/// A workload a suite command builds one way: from its configuration and a `WorkloadEnvironment`
/// of the suite's registry of its variants (a user's included); its items that run user code run
/// in child processes.
package protocol SuiteCommandWorkload: IsolatingWorkload, RegistryWorkload, EnvironmentWorkload {
    associatedtype Configuration
    /// Where a `Suite` keeps this workload's variants.
    static var suiteVariants: KeyPath<Suite, VariantRegistry<Variant>> { get }
    init(configuration: Configuration, environment: Environment) throws
}

extension WorkloadDriver {
    /// How a suite command runs its workload, written once: `--list` prints the catalogue of the
    /// current suite's variants of it, and the workload is built from `configuration` with that
    /// registry. `debugWarning` is the banner a debug build prints before measuring (nil: nothing
    /// timed).
    static func run<W: SuiteCommandWorkload>(
        _ type: W.Type,
        configuration: W.Configuration,
        common: CommonOptions,
        debugWarning: String?
    ) throws {
        let variants = Suite.current[keyPath: W.suiteVariants]
        try run(type, common: common, debugWarning: debugWarning, catalogue: W.catalogue(variants: variants), variants: variants) {
            try W(configuration: configuration, environment: $0)
        }
    }
}

extension AtomicsWorkload: SuiteCommandWorkload {
    package static var suiteVariants: KeyPath<Suite, VariantRegistry<LockVariant>> { \.locks }
}

extension ReadinessWorkload: SuiteCommandWorkload {
    package static var suiteVariants: KeyPath<Suite, VariantRegistry<ReadinessVariant>> { \.coordinators }
}

extension FanOutWorkload: SuiteCommandWorkload {
    package static var suiteVariants: KeyPath<Suite, VariantRegistry<FanOutVariant>> { \.fanOuts }
}

extension ThrottleWorkload: SuiteCommandWorkload {
    package static var suiteVariants: KeyPath<Suite, VariantRegistry<ThrottlerVariant>> { \.throttlers }
}
