/// Which commits of a trace a replay takes, and what they are: found in one streamed pass, so
/// that every replay (`CommitEvents`) streams the same selection again.
///
/// A commit is an event or an interval begin named `signpost`. Without `process`, the process
/// with the most of them is taken (ties go to the name that sorts first), because a trace of an
/// app usually holds the system's processes as well.
public struct CommitSurvey: Sendable {
    public let path: String
    public let format: TraceFormat
    public let signpost: String
    public let process: String
    public let commits: Int
    public let rows: Int64
    /// Trace-clock nanoseconds of the first and last commit.
    public let first: Int64
    public let last: Int64
    public let bytes: UInt64
    /// Matching commits per process, for the run's record.
    public let processes: [String: Int]

    struct Tally {
        var commits = 0
        var rows: Int64 = 0
        var first: Int64 = 0
        var last: Int64 = 0
        var unsortedAt: Int?

        mutating func add(_ e: SignpostEvent) {
            if e.time < last, unsortedAt == nil { unsortedAt = commits + 1 }
            commits += 1
            rows += e.rows ?? 1
            last = max(last, e.time)
        }
    }

    public init(path: String, format: TraceFormat, signpost: String, process: String?) throws(TraceImportError) {
        var reader = try SignpostReader(path: path, format: format)
        defer { reader.close() }
        var tallies: [String: Tally] = [:]
        var names: Set<String> = []
        // The last name seen and the process being counted, so that a run of events of one
        // name or one process (the usual case) hashes no string per event.
        var lastName: String?
        var current: (process: String, tally: Tally)?
        while let e = try reader.next() {
            guard e.phase != .end else { continue }
            guard e.name == signpost else {
                if e.name != lastName, names.count < 12 { names.insert(e.name) }
                lastName = e.name
                continue
            }
            if current?.process != e.process {
                if let c = current { tallies[c.process] = c.tally }
                current = (e.process, tallies[e.process] ?? Tally(first: e.time, last: e.time))
            }
            current!.tally.add(e)
        }
        if let c = current { tallies[c.process] = c.tally }
        func fail(_ message: String) -> TraceImportError { TraceImportError(path: path, message: message) }
        guard !tallies.isEmpty else {
            let seen = names.isEmpty ? "none" : names.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw fail(
                "no '\(signpost)' signposts (events or interval begins) in any process; names seen: \(seen) (pick one with --trace-signpost)"
            )
        }
        let listed = tallies.sorted { $0.key < $1.key }.map { "'\($0.key)' (\($0.value.commits))" }.joined(separator: ", ")
        let chosen: String
        if let process {
            guard tallies[process] != nil else {
                throw fail("no '\(signpost)' signposts in process '\(process)'; processes with some: \(listed)")
            }
            chosen = process
        } else {
            chosen = tallies.max { a, b in a.value.commits != b.value.commits ? a.value.commits < b.value.commits : a.key > b.key }!.key
        }
        let t = tallies[chosen]!
        if let at = t.unsortedAt {
            throw fail(
                "'\(signpost)' signpost \(at) of process '\(chosen)' is earlier than the one before: the trace must be in time order"
            )
        }
        self.path = path
        self.format = format
        self.signpost = signpost
        self.process = chosen
        (commits, rows, first, last) = (t.commits, t.rows, t.first, t.last)
        bytes = reader.bytes
        processes = tallies.mapValues(\.commits)
    }
}

/// The commits a `CommitSurvey` selected, streamed from the file again: time zero is the first
/// commit, and a commit without a `rows` value has 1 row.
public struct CommitEvents {
    let survey: CommitSurvey
    var reader: SignpostReader
    public private(set) var count = 0
    /// Set once the file is read to its end and closed: later calls return nil.
    private var finished = false

    public init(_ survey: CommitSurvey) throws(TraceImportError) {
        self.survey = survey
        reader = try SignpostReader(path: survey.path, format: survey.format)
    }

    public mutating func next() throws(TraceImportError) -> CommitEvent? {
        if finished { return nil }
        while let e = try reader.next() {
            guard e.phase != .end, e.name == survey.signpost, e.process == survey.process else { continue }
            count += 1
            return CommitEvent(time: e.time - survey.first, rows: Int32(e.rows ?? 1))
        }
        reader.close()
        finished = true
        return nil
    }
}
