import Records
import Timelines

/// The one shape every PatternBench workload has: a matrix of items, a way to run one, and a report.
///
/// A pattern module conforms once; the generic driver (`WorkloadDriver` in BenchCommandLine) does
/// everything else for every workload — `--list`, seeds, shards, `--jobs`, progress, interruption,
/// output files and the summary table. Adding a workload therefore means writing its model and this
/// conformance, nothing else.
///
/// Data flows one way: `items` → `run` (a typed `Sample` per item) → `observations` (records for
/// the tidy table) → `report` (tables, rankings, comparisons computed from the typed samples). A
/// workload never writes result files and never re-parses records from strings.
///
/// `run` is called from several threads at once when `--jobs` > 1, for items whose `timing` is
/// `.virtual`; results are collected by item index, so the output of a virtual-time run is
/// bit-identical for any `--jobs`. An item that measures real time never shares the machine with
/// another item: the driver derives that from `timing`, so no workload can get it wrong.
public protocol Workload: Sendable {
    /// One cell of the matrix: everything needed to run it, independently of every other item.
    associatedtype Item: Sendable
    /// What running one item measured, typed (not yet records).
    associatedtype Sample: Sendable

    /// The workload's name: the `workload` column and the file stem (`throttle` → throttle.csv).
    static var name: String { get }
    /// What `--list` prints: scenarios, variants, factors and what each means.
    static var catalogue: WorkloadCatalogue { get }

    /// Names of the workload-specific factor columns, in CSV column order.
    var factorNames: [String] { get }
    /// The whole matrix, in canonical order, before sharding. Item k belongs to shard (k mod N)+1.
    var items: [Item] { get }

    /// A short label for the progress line.
    func label(_ item: Item) -> String
    /// What `item` measures: virtual time (deterministic, may share the machine with other items
    /// under `--jobs`) or real time (wall or CPU time, contention, real processes: runs with no
    /// other item in flight). The default is `.real`, so a workload that forgets to say is safe.
    func timing(_ item: Item) -> ItemTiming

    /// Runs one item. Must not read a global clock in virtual-time mode and must not write files.
    func run(_ item: Item) throws -> Sample
    /// The records one finished item contributes to the tidy table.
    func observations(for item: Item, sample: Sample) -> [LabelledObservations]
    /// Whether the workload can write an `--events` timeline at all (by default: when it has traces).
    static var hasTimeline: Bool { get }
    /// The `--events` timeline of one finished item (empty unless the workload was built to record
    /// it); by default the rows of its `trace`.
    func timeline(for item: Item, sample: Sample) -> [TimelineRecord]
    /// Whether the workload's items have typed traces (`--perfetto`).
    static var hasTrace: Bool { get }
    /// One finished item's timelines — one per mode it ran in — as typed events (empty unless the
    /// workload was built to record them: `WorkloadEnvironment.recordTimeline`).
    func trace(for item: Item, sample: Sample) -> [ItemTrace]
    /// The sample without its recorded timeline, once the driver has written that to disk: what
    /// the report's aggregate keeps, so that `--perfetto` and `--events` do not hold every item's
    /// events to the end of the run. By default the sample itself.
    func withoutTimeline(_ sample: Sample) -> Sample
    /// What the driver keeps of the run for the report while items stream past (their records,
    /// timelines and traces go to disk as they finish). An `ItemKeepingWorkload` keeps every
    /// finished item (`[FinishedItem]`); a `FoldingWorkload`, whose report needs only totals and
    /// the run's summaries, folds each item into those instead, so that its memory does not grow
    /// with the number of seeds.
    associatedtype Aggregate: Sendable
    /// The aggregate before any item finished.
    var emptyAggregate: Aggregate { get }
    /// Folds one finished item into the aggregate, in canonical order.
    func aggregate(_ aggregate: inout Aggregate, _ finished: FinishedItem<Item, Sample>)
    /// The run's report from the aggregate and `summaries`: `Statistics.summarize` of every record
    /// the items contributed, in canonical order (computed as they streamed to disk). `complete` is
    /// false when the run was interrupted and the aggregate holds only what finished. The one
    /// report the driver asks for; `ItemKeepingWorkload` writes it from a whole list of items.
    func report(_ aggregate: Aggregate, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport

    /// Every parameter of the run, defaults included, so that the JSON alone reproduces it.
    var parameters: [String: JSONValue] { get }
    /// The version of the random streams the workload's virtual-time values come from, written to
    /// each run's metadata (`random_stream_version`); bench-gate never compares deterministic
    /// values of two versions. By default 1; a workload raises it when its streams change what a
    /// seed gives (bench-throttle: `ArrivalIterator.streamVersion`).
    static var randomStreamVersion: Int { get }
    /// Where each variant of the run comes from, by variant name: the `origin` column (a variant
    /// not named here, such as a harness row, gets `reference`: `VariantOrigin.of`). A workload with a
    /// `VariantRegistry` returns its `origins`.
    var variantOrigins: [String: VariantOrigin] { get }
}

extension Workload {
    public func timing(_ item: Item) -> ItemTiming { .real }
    public func timeline(for item: Item, sample: Sample) -> [TimelineRecord] {
        trace(for: item, sample: sample).flatMap(\.timelineRecords)
    }
    public static var hasTimeline: Bool { hasTrace }
    public static var hasTrace: Bool { false }
    public func trace(for item: Item, sample: Sample) -> [ItemTrace] { [] }
    public func withoutTimeline(_ sample: Sample) -> Sample { sample }
    public var variantOrigins: [String: VariantOrigin] { [:] }
    public static var randomStreamVersion: Int { 1 }
}

/// What an item measures, which decides whether it may run beside others under `--jobs`.
///
/// The rule lives in the driver, not in each workload: `.virtual` items share the pool of `--jobs`
/// workers; every `.real` item runs alone, with nothing else in flight, because a neighbour takes
/// cores, caches, memory bandwidth and (in one process) any process-wide lock it measures.
public enum ItemTiming: Sendable, Hashable {
    /// Virtual time only: the result does not depend on what else runs (deterministic).
    case virtual
    /// Real time, CPU time, contention or real processes: a neighbour would change the result.
    case real

    /// Whether the driver runs an item of this timing with no other item in flight.
    public var runsAlone: Bool { self == .real }
}

/// One item that ran, with its index in the (unsharded) matrix and what it measured.
public struct FinishedItem<Item: Sendable, Sample: Sendable>: Sendable {
    public var index: Int
    public var item: Item
    public var sample: Sample

    public init(index: Int, item: Item, sample: Sample) {
        self.index = index
        self.item = item
        self.sample = sample
    }
}
