import Foundation
import Records

/// The one rule for "did this live cell change between the reference and these results?"
/// (`pb-verdict-3`), the Swift twin of `analysis/patternbench_analysis/verdicts.py`.
///
/// bench-gate decides its hardware metrics with it; `pb-analysis compare` and `history changes`
/// decide with the Python twin. Both are deterministic (no resampling) and written step for step
/// alike, and `analysis/tests/test_verdict_agreement.py` runs both on committed real run pairs and
/// requires identical verdicts. The assumptions are stated once, in verdicts.py and
/// docs/analysis.md ("The one rule"); in short:
/// - repetitions of one run share the host's state, so with ≥ `minimumRuns` runs a side each run
///   counts once (its median); with fewer, repetitions are compared and the change must clear the
///   A/A noise floor of that CPU, metric, cell shape and variant, or the cell is inconclusive;
/// - two-sided Mann–Whitney U (exact without ties up to `exactMaximum` a side), Benjamini–Hochberg
///   at `q` over every tested live cell, Hodges–Lehmann shift with its Moses 95 % interval, on log
///   values when all are positive;
/// - against a floor the bar widens to the cell's own repetition spread, and a side that ran
///   noisier than the floor's A/A pairs (`noisierThanFloor`) is inconclusive;
/// - a directed verdict agrees in sign with the medians' change, or is not given.
public enum VerdictRule {
    public static let name = "pb-verdict-3"
    public static let minimumRuns = 5
    public static let minimumValues = 5
    /// With 3 or 4 repetitions a side (one run each) only complete separation beyond the floor counts.
    public static let minimumSeparated = 3
    public static let q = 0.05
    public static let exactMaximum = 25
    static let z975 = 1.959963984540054

    public enum Unit: String, Codable, Sendable { case runs, repetitions }
    public enum Outcome: String, Codable, Sendable {
        case worse, better, same = "no detectable change", inconclusive, tooFew = "too few repetitions"
    }

    /// One cell's test, before the family's adjustment.
    public struct Evidence: Sendable {
        public var unit: Unit
        public var nBase, nNew, runsBase, runsNew: Int
        public var logScale: Bool
        public var baseMedian, newMedian: Double
        public var change, low, high: Double?
        public var p: Double?
        public var pAdjusted: Double?
        /// The cell's common shift (over its variants) removed from change, low and high (one run a side).
        public var common: Double?
        /// NEW's median against BASE's, relative: its sign always agrees with the two medians.
        public var medianChange: Double?
        /// The wider side's repetitions, max/min − 1 (repetition cells on log scale, 3 or 4 a side).
        public var spread: Double?

        public var tested: Bool { p != nil }
    }

    /// The evidence of one cell from its finite values per run id.
    public static func evidence(base baseRuns: [String: [Double]], new newRuns: [String: [Double]]) -> Evidence {
        let runsB = baseRuns.values.filter { !$0.isEmpty }.count, runsN = newRuns.values.filter { !$0.isEmpty }.count
        let unit: Unit
        let base: [Double], new: [Double]
        if runsB >= minimumRuns, runsN >= minimumRuns {
            unit = .runs
            base = baseRuns.keys.sorted().compactMap { baseRuns[$0]!.isEmpty ? nil : median(baseRuns[$0]!) }
            new = newRuns.keys.sorted().compactMap { newRuns[$0]!.isEmpty ? nil : median(newRuns[$0]!) }
        } else {
            unit = .repetitions
            base = baseRuns.keys.sorted().flatMap { baseRuns[$0]! }
            new = newRuns.keys.sorted().flatMap { newRuns[$0]! }
        }
        let logScale = base.allSatisfy { $0 > 0 } && new.allSatisfy { $0 > 0 }
        var ev = Evidence(
            unit: unit,
            nBase: base.count,
            nNew: new.count,
            runsBase: runsB,
            runsNew: runsN,
            logScale: logScale,
            baseMedian: base.isEmpty ? .nan : median(base),
            newMedian: new.isEmpty ? .nan : median(new)
        )
        ev.medianChange = medianChange(base: ev.baseMedian, new: ev.newMedian)
        // Only where the interval is the full range (3 or 4 a side); from 5 the Moses interval carries it.
        if unit == .repetitions, logScale, (minimumSeparated..<minimumValues).contains(min(base.count, new.count)) {
            ev.spread = max(base.max()! / base.min()!, new.max()! / new.min()!) - 1
        }
        let smallest = unit == .repetitions ? minimumSeparated : minimumValues
        guard base.count >= smallest, new.count >= smallest else { return ev }
        if base.sorted() == new.sorted() {
            ev.change = 0
            ev.p = 1
            return ev
        }
        let xb = logScale ? base.map { log($0) } : base
        let xn = logScale ? new.map { log($0) } : new
        ev.p = mannWhitney(base: xb, new: xn)
        var (shift, low, high) = hodgesLehmann(base: xb, new: xn)
        if base.count < minimumValues || new.count < minimumValues {  // 3 or 4 a side: the full range
            (low, high) = (xn.min()! - xb.max()!, xn.max()! - xb.min()!)
        }
        ev.change = relative(shift, logScale, ev.baseMedian)
        ev.low = low.flatMap { relative($0, logScale, ev.baseMedian) }
        ev.high = high.flatMap { relative($0, logScale, ev.baseMedian) }
        return ev
    }

    /// NEW's median against BASE's, relative to |BASE's| (nil from a zero or non-finite median).
    static func medianChange(base: Double, new: Double) -> Double? {
        guard base.isFinite, new.isFinite else { return nil }
        if new == base { return 0 }
        return base == 0 ? nil : (new - base) / abs(base)
    }

    static func relative(_ shift: Double, _ logScale: Bool, _ baseMedian: Double) -> Double? {
        if logScale { return expm1(shift) }
        return baseMedian == 0 ? nil : shift / abs(baseMedian)
    }

    /// The bar a repetition cell's whole interval must clear against a floor: the largest of the
    /// minimum effect, the floor and the cell's own repetition spread (a run whose repetitions
    /// scatter more than the floor ran noisier than the A/A pairs the floor was learned from).
    public static func bar(_ ev: Evidence, minimumEffect: Double, floor: Double?) -> Double {
        max(minimumEffect, floor ?? 0, ev.spread ?? 0)
    }

    /// The verdict of a tested cell (after `adjust`), for a metric where lower or higher is better.
    /// `noisier` (from `noisierThanFloor`) makes a repetition cell that would be flagged inconclusive.
    public static func decide(
        _ ev: Evidence,
        lowerIsBetter: Bool,
        minimumEffect: Double,
        floor: Double?,
        noisier: String = ""
    ) -> Outcome {
        let smallest = ev.unit == .repetitions ? minimumSeparated : minimumValues
        guard ev.nBase >= smallest, ev.nNew >= smallest else { return .tooFew }
        guard let p = ev.pAdjusted else { return .same }
        let separated = ev.nBase < minimumValues || ev.nNew < minimumValues
        // Against a floor the floor is the control, not the repetitions' p (see verdicts.py).
        let significant = separated || (ev.unit == .repetitions && floor != nil) || p <= q
        let large: Bool
        if let change = ev.change {
            if ev.unit == .repetitions, floor != nil || separated {
                let bar = bar(ev, minimumEffect: minimumEffect, floor: floor)
                if let low = ev.low, let high = ev.high { large = low > bar || high < -bar } else { large = false }
            } else {
                large = abs(change) >= minimumEffect
            }
        } else {
            large = significant && !separated  // from 0: a significant test decides, never 3 or 4 a side
        }
        guard significant, large else { return .same }
        if ev.unit == .repetitions, floor == nil || !noisier.isEmpty { return .inconclusive }
        let delta = ev.change ?? (ev.newMedian - ev.baseMedian)
        // The estimate (after the common shift) against the medians: a verdict that contradicts the
        // numbers printed under it is not given.
        if let m = ev.medianChange, delta * m <= 0 { return .inconclusive }
        if delta == 0 { return .same }
        return (delta > 0) == lowerIsBetter ? .worse : .better
    }

    /// Metrics that describe the machine during a run, not the code (verdicts.py's
    /// `HOST_CONDITIONS`): reported as conditions, never judged, so the gate refuses to gate them.
    public static let hostConditions: Set<String> = [
        "co_scheduled_fraction", "involuntary_ctx_switches", "elapsed_ms", "cpu_time_ms",
    ]

    /// A side's load per logical core may exceed the floor's by this factor (load averages lag).
    public static let loadMargin = 1.25
    /// And its co-scheduling probe fraction fall this far below (the probe's own scatter).
    public static let probeMargin = 0.25

    /// What a floor vouches for: the highest 1-minute load per logical core and the lowest
    /// co-scheduling probe fraction of the runs it was learned from (nil: not recorded).
    public struct LearnedAt: Sendable, Equatable {
        public var loadPerCore: Double?
        public var coScheduled: Double?
        public init(loadPerCore: Double? = nil, coScheduled: Double? = nil) {
            self.loadPerCore = loadPerCore
            self.coScheduled = coScheduled
        }
    }

    /// How noisy one side ran: its highest 1-minute load per logical core (start and end of its
    /// runs that measured live) and its lowest co-scheduling probe fraction.
    public struct SideNoise: Sendable, Equatable {
        public var loadPerCore: Double?
        public var coScheduled: Double?
        public init(loadPerCore: Double? = nil, coScheduled: Double? = nil) {
            self.loadPerCore = loadPerCore
            self.coScheduled = coScheduled
        }

        /// A side's noise from its run documents of one workload (compare.py's `_side_noise`).
        public static func of(_ documents: [RunDocument], workload: String) -> SideNoise {
            var loads: [Double] = [], cores = 1, fractions: [Double] = []
            for d in documents where d.workload == workload && d.records.contains(where: { $0.mode == "live" }) {
                loads += [d.metadata.loadAverage1mStart, d.metadata.loadAverage1mEnd].compactMap { $0 }
                cores = max(cores, d.metadata.host.logicalCores)
                if case .object(let probe)? = d.metadata.parameters["co_scheduling_probe"] {
                    for when in ["before", "after"] {
                        if case .object(let p)? = probe[when], case .number(let f)? = p["fraction"] { fractions.append(f) }
                    }
                }
            }
            return SideNoise(loadPerCore: loads.max().map { $0 / Double(cores) }, coScheduled: fractions.min())
        }
    }

    /// Both sides' noise for one workload, and what the floor file was learned at.
    public struct PairNoise: Sendable, Equatable {
        public var base, new: SideNoise
        public var learned: LearnedAt
        public init(base: SideNoise, new: SideNoise, learned: LearnedAt) {
            self.base = base
            self.new = new
            self.learned = learned
        }

        /// Per workload of `workloads`, from the two sides' run documents.
        public static func of(
            current: [RunDocument],
            reference: [RunDocument],
            workloads: Set<String>,
            learned: LearnedAt
        ) -> [String: PairNoise] {
            Dictionary(
                uniqueKeysWithValues: workloads.map {
                    ($0, PairNoise(base: .of(reference, workload: $0), new: .of(current, workload: $0), learned: learned))
                }
            )
        }
    }

    /// Why a side ran noisier than the floor was learned at, or "" (verdicts.py's
    /// `noisier_than_floor`, word for word): a higher load per core than the learning pairs', or,
    /// for a cell of several threads, threads that ran together less often than in those pairs.
    public static func noisierThanFloor(
        base: SideNoise,
        new: SideNoise,
        learned: LearnedAt,
        severalThreads: Bool
    ) -> String {
        var reasons: [String] = []
        for (label, side) in [("BASE", base), ("NEW", new)] {
            if let load = side.loadPerCore, let learnedLoad = learned.loadPerCore, load > learnedLoad * loadMargin {
                reasons.append(
                    "\(label) ran at load \(String(format: "%.2f", load)) per core, the floor was learned at ≤ \(String(format: "%.2f", learnedLoad))"
                )
            }
        }
        if severalThreads {
            for (label, side) in [("BASE", base), ("NEW", new)] {
                if let probe = side.coScheduled, let learnedProbe = learned.coScheduled, probe < learnedProbe - probeMargin {
                    reasons.append(
                        "\(label)'s threads ran together \(percent(probe)) of its co-scheduling probe, \(percent(learnedProbe)) when the floor was learned"
                    )
                }
            }
        }
        return reasons.joined(separator: "; ")
    }

    /// Python's `{:.0%}`.
    static func percent(_ value: Double) -> String { "\(Int((100 * value).rounded()))%" }

    /// The conditions a floor file records (`learned_at`); none when absent or the file is missing.
    public static func loadLearnedAt(path: String) -> LearnedAt {
        struct File: Decodable {
            struct Conditions: Decodable {
                var load_per_core: Double?
                var co_scheduled: Double?
            }
            var learned_at: Conditions?
        }
        guard let data = FileManager.default.contents(atPath: path),
            let file = try? JSONDecoder().decode(File.self, from: data), let at = file.learned_at
        else { return LearnedAt() }
        return LearnedAt(loadPerCore: at.load_per_core, coScheduled: at.co_scheduled)
    }

    /// Benjamini–Hochberg adjusted p-values (step-up), in the input order.
    public static func benjaminiHochberg(_ p: [Double]) -> [Double] {
        let m = p.count
        let order = (0..<m).sorted { (p[$0], $0) < (p[$1], $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 1.0
        for rank in stride(from: m, through: 1, by: -1) {
            let i = order[rank - 1]
            running = min(running, p[i] * Double(m) / Double(rank))
            adjusted[i] = min(1, running)
        }
        return adjusted
    }

    /// Sets `pAdjusted` over the tested cells of one family.
    public static func adjust(_ cells: inout [Evidence]) {
        let tested = cells.indices.filter { cells[$0].tested }
        let adjusted = benjaminiHochberg(tested.map { cells[$0].p! })
        for (i, a) in zip(tested, adjusted) { cells[i].pAdjusted = a }
    }

    /// Variants of one cell needed for its common shift to be estimated and removed.
    public static let minimumCommon = 5

    /// One run a side: per metric and cell (scenario and factors), the median change of its variants
    /// is the run's shift (host load while the cell ran, per-run calibration), not the code's;
    /// removes it from those cells (verdicts.py's `remove_common_shift`, step for step). The caller
    /// groups by cell: a cell's variants run interleaved within seconds, so a load burst moves them together.
    public static func removeCommonShift(_ cells: inout [Evidence], groups: [[Int]]) {
        for group in groups {
            let usable = group.filter {
                cells[$0].unit == .repetitions && cells[$0].logScale && cells[$0].tested && cells[$0].change != nil
            }
            guard usable.count >= minimumCommon else { continue }
            let common = median(usable.map { log1p(cells[$0].change!) })
            for i in usable {
                cells[i].common = expm1(common)
                cells[i].change = expm1(log1p(cells[i].change!) - common)
                if let low = cells[i].low, let high = cells[i].high {
                    cells[i].low = expm1(log1p(low) - common)
                    cells[i].high = expm1(log1p(high) - common)
                }
            }
        }
    }

    // MARK: - Mann–Whitney and Hodges–Lehmann

    nonisolated(unsafe) private static var countsCache: [Int: [Double]] = [:]
    private static let cacheLock = NSLock()

    /// Arrangements giving U = 0 … m·n without ties: f(m, n, u) = f(m−1, n, u−n) + f(m, n−1, u).
    static func uCounts(_ m: Int, _ n: Int) -> [Double] {
        if m == 0 || n == 0 { return [1] }
        let key = m * 1000 + n
        cacheLock.lock()
        if let cached = countsCache[key] {
            cacheLock.unlock()
            return cached
        }
        cacheLock.unlock()
        let a = uCounts(m - 1, n), b = uCounts(m, n - 1)
        var out = [Double](repeating: 0, count: m * n + 1)
        for (u, c) in a.enumerated() { out[u + n] += c }
        for (u, c) in b.enumerated() { out[u] += c }
        cacheLock.lock()
        countsCache[key] = out
        cacheLock.unlock()
        return out
    }

    /// P(U ≤ u) under H0, summed from 0 upward as the Python twin does.
    static func cdf(_ m: Int, _ n: Int, _ u: Int) -> Double {
        let counts = uCounts(m, n)
        var total = 0.0
        for c in counts { total += c }
        var below = 0.0
        if u >= 0 { for i in 0...min(u, m * n) { below += counts[i] } }
        return below / total
    }

    /// Two-sided p-value of the Mann–Whitney U test of NEW against BASE.
    public static func mannWhitney(base: [Double], new: [Double]) -> Double {
        let m = new.count, n = base.count
        let values = new + base
        let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
        var ranks = [Double](repeating: 0, count: values.count)
        var ties = 0.0
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count, values[order[j + 1]] == values[order[i]] { j += 1 }
            for k in i...j { ranks[order[k]] = Double(i + j + 2) / 2 }
            let t = Double(j - i + 1)
            ties += t * t * t - t
            i = j + 1
        }
        var rNew = 0.0
        for r in ranks[0..<m] { rNew += r }
        let dm = Double(m), dn = Double(n)
        let u = rNew - dm * (dm + 1) / 2
        if ties == 0, m <= exactMaximum, n <= exactMaximum {
            let k = Int(u.rounded())
            let low = cdf(m, n, k)
            let high = k > 0 ? 1 - cdf(m, n, k - 1) : 1
            return min(1, 2 * min(low, high))
        }
        let total = dm + dn
        let variance = dm * dn / 12 * ((total + 1) - ties / (total * (total - 1)))
        guard variance > 0 else { return 1 }
        let z = (abs(u - dm * dn / 2) - 0.5) / variance.squareRoot()
        guard z > 0 else { return 1 }
        return min(1, erfc(z / 2.0.squareRoot()))
    }

    /// Largest c with P(U ≤ c) ≤ 2.5 % (−1: too few values for a 95 % interval).
    static func critical(_ m: Int, _ n: Int) -> Int {
        if m <= exactMaximum, n <= exactMaximum {
            var c = -1
            while c + 1 <= m * n, cdf(m, n, c + 1) <= 0.025 { c += 1 }
            return c
        }
        let dm = Double(m), dn = Double(n)
        return max(-1, Int((dm * dn / 2 - z975 * (dm * dn * (dm + dn + 1) / 12).squareRoot()).rounded(.down)))
    }

    /// NEW − BASE: the median of all pairwise differences and its Moses 95 % interval.
    static func hodgesLehmann(base: [Double], new: [Double]) -> (Double, Double?, Double?) {
        var diffs: [Double] = []
        diffs.reserveCapacity(base.count * new.count)
        for a in new { for b in base { diffs.append(a - b) } }
        diffs.sort()
        let size = diffs.count
        let estimate = size % 2 == 1 ? diffs[size / 2] : (diffs[size / 2 - 1] + diffs[size / 2]) / 2
        let c = critical(new.count, base.count)
        guard c >= 0 else { return (estimate, nil, nil) }
        return (estimate, diffs[c], diffs[size - 1 - c])
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        let k = s.count
        return k % 2 == 1 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2
    }

    // MARK: - Noise floors

    /// The noise floor file's format: 2 holds one floor per variant of a cell shape; 1 (files
    /// without a `version`) one floor per cell shape, over every variant (verdicts.py's `FLOOR_VERSION`).
    ///
    /// Per variant because a shape's floor was the largest A/A change over all its variants, so one
    /// noisy variant (`dispatch-queue`'s repetitions) raised it for every other one and hid a 25 %
    /// slowdown of `pthread-mutex`.
    public static let floorVersion = 2

    /// The key of a noise floor: CPU, workload, metric, cell shape (factors) and, from version 2,
    /// the variant, as verdicts.py spells it.
    public static func floorKey(
        fingerprint: CPUIdentity?,
        workload: String,
        metric: String,
        factors: [String: String],
        variant: String? = nil
    ) -> String {
        let shape = factors.keys.sorted().map { "\($0)=\(factors[$0]!)" }.joined(separator: ",")
        let key = "\(fingerprint?.description ?? "None")|\(workload)|\(metric)|\(shape)"
        return variant.map { "\(key)\(variantMarker)\($0)" } ?? key
    }

    /// A cell's floor: its variant's (version 2), else its shape's (a version-1 file, whose floors
    /// hold for every variant of the shape).
    public static func floor(
        in floors: [String: Double],
        fingerprint: CPUIdentity?,
        workload: String,
        metric: String,
        factors: [String: String],
        variant: String
    ) -> Double? {
        floors[floorKey(fingerprint: fingerprint, workload: workload, metric: metric, factors: factors, variant: variant)]
            ?? floors[floorKey(fingerprint: fingerprint, workload: workload, metric: metric, factors: factors)]
    }

    /// Reads results/noise-floor.json (or another file): key → floor. A missing default file is no
    /// floors; a missing file the user named (`required`) is an input error, since every verdict
    /// would silently turn inconclusive; a version newer than `floorVersion` is refused (exit 2),
    /// never read as if it were known.
    public static func loadFloors(path: String, required: Bool = false) throws(GateError) -> [String: Double] {
        guard FileManager.default.fileExists(atPath: path) else {
            guard !required else { throw GateError(message: "noise floor file \(path): no such file", exitCode: 2) }
            return [:]
        }
        struct File: Decodable {
            struct Entry: Decodable {
                var key: String
                var floor: Double
            }
            var version: Int?
            var floors: [Entry]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw GateError(message: "noise floor file \(path): unreadable (\(error.localizedDescription))", exitCode: 2)
        }
        let version = file.version ?? 1
        guard (1...floorVersion).contains(version) else {
            throw GateError(
                message: "noise floor file \(path): format version \(version), this build reads 1 to \(floorVersion)",
                exitCode: 2
            )
        }
        let floors = Dictionary(file.floors.map { ($0.key, $0.floor) }, uniquingKeysWith: { a, _ in a })
        return version >= 2 ? resolvePerVariant(floors) : floors
    }

    static let variantMarker = "|variant="

    /// A variant's floor is never below the median of its shape's variant floors: its own largest
    /// A/A change comes from few cells (its scenarios × the pairs) and can undershoot its noise,
    /// while the median over variants is robust to one noisy variant (verdicts.py's `floor_for`).
    static func resolvePerVariant(_ floors: [String: Double]) -> [String: Double] {
        func shape(_ key: String) -> String? { key.range(of: variantMarker).map { String(key[..<$0.lowerBound]) } }
        var byShape: [String: [Double]] = [:]
        for (key, floor) in floors {
            if let s = shape(key) { byShape[s, default: []].append(floor) }
        }
        let medians = byShape.mapValues { median($0) }
        var resolved = floors
        for (key, floor) in floors {
            if let s = shape(key), let m = medians[s] { resolved[key] = max(floor, m) }
        }
        return resolved
    }
}
