import Records

/// Warns when two sets of runs were measured at markedly different host loads.
///
/// Live numbers move with the share of the CPUs other processes take, and that share is invisible
/// in the numbers. A load difference is not a reason to refuse a comparison (the rule's noise
/// floors and interleaving absorb what they can), but a reader must see it beside any verdict.
/// The same rule is in `patternbench_analysis.compare` (`_load_warning`): a side's load is the
/// mean of its documents' start and end 1-minute load averages (`HostLoad`); the sides differ
/// markedly when the difference is at least half the host's logical cores (at least 1) **and** the
/// higher is at least 1.5× the lower: on 2 cores, 0.4 against 1.5 warns, 20 against 25 does not
/// (both are saturated).
public enum HostLoadCheck {
    /// One side's loads: the mean, and the lowest and highest reading it is made of.
    public struct SideLoad: Sendable, Equatable {
        public var mean: Double
        public var low: Double
        public var high: Double
        public var cores: Int
    }

    /// The loads of `documents` that measured `workload` live, or nil when none records a load.
    public static func load(of documents: [RunDocument], workload: String) -> SideLoad? {
        let live = documents.filter { $0.workload == workload && $0.records.contains { $0.mode == "live" } }
        let readings = live.flatMap { [$0.metadata.loadAverage1mStart, $0.metadata.loadAverage1mEnd].compactMap { $0 } }
        guard !readings.isEmpty else { return nil }
        return SideLoad(
            mean: readings.reduce(0, +) / Double(readings.count),
            low: readings.min()!,
            high: readings.max()!,
            cores: live.map(\.metadata.host.logicalCores).max() ?? 1
        )
    }

    /// Whether two sides' loads differ markedly (the rule above).
    public static func differs(_ a: SideLoad, _ b: SideLoad) -> Bool {
        let cores = max(a.cores, b.cores, 1)
        let lower = max(min(a.mean, b.mean), 0.1), higher = max(a.mean, b.mean)
        return higher - lower >= max(1, 0.5 * Double(cores)) && higher >= 1.5 * lower
    }

    /// One note per workload whose live runs were measured at markedly different loads.
    public static func notes(current: [RunDocument], reference: [RunDocument], workloads: Set<String>, referenceName: String) -> [String] {
        workloads.sorted().compactMap { workload in
            guard let here = load(of: current, workload: workload), let there = load(of: reference, workload: workload),
                differs(there, here)
            else { return nil }
            return
                "\(workload): the host's load differed: 1-minute load average \(describe(there)) in the \(referenceName), \(describe(here)) in these results, on \(max(here.cores, there.cores)) logical cores; live numbers move with the load alone"
        }
    }

    static func describe(_ side: SideLoad) -> String {
        func f(_ x: Double) -> String { String(Double((x * 100).rounded()) / 100) }
        return side.low == side.high ? f(side.mean) : "\(f(side.mean)) (\(f(side.low))–\(f(side.high)))"
    }
}
