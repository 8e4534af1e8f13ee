import BenchCommandLine
import FanOut
import Locking
import Measurement
import Readiness
import Throttling

/// A workload a suite command builds one way: from its configuration, the matrix selection, the
/// suite's registry of its variants (a user's included) and whether to record timelines; its
/// items that run user code run in child processes.
package protocol SuiteCommandWorkload: IsolatingWorkload, RegistryWorkload {
    associatedtype Configuration
    /// Where a `Suite` keeps this workload's variants.
    static var suiteVariants: KeyPath<Suite, VariantRegistry<Variant>> { get }
    init(configuration: Configuration, selection: MatrixSelection, registry: VariantRegistry<Variant>, recordTimeline: Bool) throws
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
        try run(type, common: common, debugWarning: debugWarning, catalogue: W.catalogue(variants: variants)) { environment in
            try W(
                configuration: configuration,
                selection: environment.selection,
                registry: variants,
                recordTimeline: environment.recordTimeline
            )
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

    /// The suite's spelling: the timeline bench-group records is its flows' trace.
    package init(
        configuration: FanOutConfiguration,
        selection: MatrixSelection,
        registry: VariantRegistry<FanOutVariant>,
        recordTimeline: Bool
    ) throws {
        try self.init(configuration: configuration, selection: selection, registry: registry, recordTrace: recordTimeline)
    }
}

extension ThrottleWorkload: SuiteCommandWorkload {
    package static var suiteVariants: KeyPath<Suite, VariantRegistry<ThrottlerVariant>> { \.throttlers }

    /// The suite's argument order.
    package init(
        configuration: ThrottleConfiguration,
        selection: MatrixSelection,
        registry: VariantRegistry<ThrottlerVariant>,
        recordTimeline: Bool
    ) throws {
        try self.init(configuration: configuration, selection: selection, recordTimeline: recordTimeline, registry: registry)
    }
}
