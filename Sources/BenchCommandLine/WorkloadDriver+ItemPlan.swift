import Measurement
import Processes
import Records
import Timelines

extension WorkloadDriver {
    /// The items one run measures, in matrix order (a shard's share of them), and how one item is
    /// run: in this process, in a child process, or twice for `--check-determinism`.
    ///
    /// The item workers share it, so it holds only what they may read from any thread.
    struct ItemPlan<W: Workload>: Sendable {
        let workload: W
        /// Every item of the matrix; `indices` are the ones this run measures.
        let all: [W.Item]
        /// The matrix index of each position this run measures, in order.
        let indices: [Int]
        let isolation: Isolation<W>?
        let checkDeterminism: Bool

        /// The items `workload` has, or the shard's share of them. An empty selection is a usage error.
        init(workload: W, common: CommonOptions, isolation: Isolation<W>?) throws {
            self.workload = workload
            let all = workload.items
            let indices = common.shard.map { $0.select(Array(all.indices)) } ?? Array(all.indices)
            guard !indices.isEmpty else {
                throw BenchFailure.usage("the selection is empty\(common.shard.map { " (shard \($0) of \(all.count) items)" } ?? "")")
            }
            self.all = all
            self.indices = indices
            self.isolation = isolation
            checkDeterminism = common.checkDeterminism
        }

        var count: Int { indices.count }
        func item(at position: Int) -> W.Item { all[indices[position]] }
        func label(at position: Int) -> String { workload.label(item(at: position)) }

        /// Whether the item must run with no other item in flight (a live item that measures time).
        func runsAlone(_ position: Int) -> Bool { workload.timing(item(at: position)).runsAlone }

        /// Whether an interrupt may leave the item behind: a virtual-time item is pure computation
        /// and an isolated item's child is killed; a built-in live item is waited for (it reaps the
        /// processes it started, which the interrupt's handler has killed, so it ends at once).
        func canAbandon(_ position: Int) -> Bool {
            let item = item(at: position)
            return workload.timing(item) == .virtual || isolation?.isolates(workload, item) == true
        }

        /// Runs the item at `position`. An isolated item's failure, or a variant that broke its role's
        /// contract, fails the item and not the run; any other error is thrown and stops the run.
        func run(_ position: Int) throws -> Outcome<W.Sample> {
            let item = item(at: position)
            do {
                if checkDeterminism, workload.timing(item) == .virtual {
                    return .sample(try checkedTwice(workload, item, index: indices[position], isolation: isolation))
                }
                guard let isolation, isolation.isolates(workload, item) else { return try runInProcess(item) }
                return .sample(try isolation.runInChild(indices[position], workload.label(item)))
            } catch let failure as IsolatedItemFailure {
                return .isolatedFailure(failure)
            } catch let violation as ContractViolation {
                // A variant that broke its role's contract fails its item, like a trap does.
                return .isolatedFailure(IsolatedItemFailure(label: workload.label(item), reason: violation.description))
            } catch is ChildItemStopped {
                return .stopped
            }
        }

        private func runInProcess(_ item: W.Item) throws -> Outcome<W.Sample> {
            if workload.timing(item) == .virtual { return .sample(try workload.run(item)) }
            // A live item the interrupt cut short (its children killed) has no complete sample,
            // whatever it returns or throws: dropped, not failed.
            do {
                let sample = try workload.run(item)
                return Interruption.pending == nil ? .sample(sample) : .stopped
            } catch  where Interruption.pending != nil {
                return .stopped
            }
        }
    }
}
