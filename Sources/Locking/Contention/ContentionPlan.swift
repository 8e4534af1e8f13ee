/// The matrix of one run: which operations, strategies, thread counts and work amounts.
package struct ContentionPlan: Sendable, Hashable {
    package var operations: [ContentionOperation]
    package var variants: [LockVariant]
    package var threads: [Int]
    package var csWorks: [WorkAmount]
    package var gapWorks: [WorkAmount]

    package init(operations: [ContentionOperation], variants: [LockVariant], threads: [Int], csWorks: [WorkAmount], gapWorks: [WorkAmount])
    {
        self.operations = operations
        self.variants = variants
        self.threads = threads
        self.csWorks = csWorks
        self.gapWorks = gapWorks
    }

    package static let defaultThreads = [1, 2, 4, 8]
    package static let maximumThreads = 1024

    /// The curated default: the asked-about strategies, `mutex`, the atomic floor and the C
    /// reference; increment and read-mostly; every thread count; no work and ~50 ns of
    /// critical-section work.
    package static let defaultSlice = ContentionPlan(
        operations: ContentionOperation.defaultSlice,
        variants: LockVariant.defaultSlice,
        threads: defaultThreads,
        csWorks: [.none, WorkAmount(parsing: "50ns")!],
        gapWorks: [.none]
    )

    /// `--full`: everything (every registered variant: the workload puts in its registry's).
    package static let full = ContentionPlan(
        operations: ContentionOperation.allCases,
        variants: LockVariant.builtIn,
        threads: defaultThreads,
        csWorks: [.none, WorkAmount(parsing: "50ns")!, WorkAmount(parsing: "500ns")!],
        gapWorks: [.none, WorkAmount(parsing: "50ns")!, WorkAmount(parsing: "1us")!]
    )

    /// Every cell, ordered by operation, critical-section work, gap work, then thread count.
    package var cells: [ContentionCell] {
        var out: [ContentionCell] = []
        for op in operations where variants.contains(where: { $0.supports(op) }) {
            for cs in csWorks {
                for gap in gapWorks {
                    for t in threads {
                        out.append(ContentionCell(operation: op, threads: t, csWork: cs, gapWork: gap))
                    }
                }
            }
        }
        return out
    }

    /// The variants that run in `cell`, in the plan's order.
    package func variants(for cell: ContentionCell) -> [LockVariant] {
        variants.filter { $0.supports(cell.operation) }
    }

    /// The number of (cell, variant) pairs among `cells`.
    package func pairCount(_ cells: [ContentionCell]) -> Int {
        cells.reduce(0) { $0 + variants(for: $1).count }
    }
}
