/// A workload some of whose items run in a child process of the same executable, so that code
/// PatternBench does not control (a user's variant, in virtual time as in live) can trap or hang
/// without taking the run down: the driver reports that item as failed, with its label and the
/// reason, kills it after `--item-timeout`, and writes the rest.
///
/// The child re-executes the binary with the run's own arguments plus the item's index, runs that
/// one item and writes its `Sample` as JSON; the parent reads it back, so the report treats an
/// isolated item exactly like one that ran in-process (a virtual-time sample is bit-identical
/// either way: JSON carries a Double's shortest round-tripping digits).
public protocol IsolatingWorkload: Workload where Sample: Codable {
    /// Whether `item` runs in a child process (an item that runs a `user` variant's code).
    func runsInChildProcess(_ item: Item) -> Bool
}
