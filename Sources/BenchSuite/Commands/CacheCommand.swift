import ArgumentParser
import BenchCommandLine
import Caching
import Measurement

/// `bench-cache`: Signal's context-aware LRU cache across its generations, eviction policies, and ours.
package struct CacheCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-cache",
        abstract: "Count-bounded caches before a slow store: hit ratio, miss storms and cost per operation.",
        discussion: """
            With no arguments: every variant x every trace x 2 seeds in virtual time (deterministic), \
            Signal's cache sizes swept in the main app and each trace's cache in the NSE and the share \
            extension, writing results/runs/<run-id>/cache.csv and .json. --mode live runs the real \
            implementations on real threads (get/set ns, clear latency, allocations, bytes per entry).
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: CacheOptions
    @OptionGroup(title: "Differential mode") var differential: DifferentialOptions

    package func run() throws {
        if differential.isRequested { return try differential.run(CacheCase.self, registry: Suite.current.caches, common: common) }
        let registry = Suite.current.caches
        if common.list {
            print(CacheWorkload.catalogue(variants: registry).render(verbose: common.verbose), terminator: "")
            return
        }
        var jemalloc: JemallocCounters?
        if options.mode == .live {
            jemalloc = try AllocatorSwitch.activateForRun(options.allocator).jemalloc
        }
        let configuration = try options.configuration
        let timed = options.mode == .live ? "bench-cache --mode live measures real time" : nil
        try WorkloadDriver.run(CacheWorkload.self, common: common, debugWarning: timed, variants: registry) {
            try CacheWorkload(configuration: configuration, environment: $0, jemalloc: jemalloc)
        }
    }
}
