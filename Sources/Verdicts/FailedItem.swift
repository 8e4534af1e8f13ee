import Records

/// A matrix item that failed in its own process (a trap, a crash, a timeout) while the rest of
/// the run finished and was written: the gate checks what finished and fails on these.
public struct FailedItem: Codable, Hashable, Sendable {
    public var workload: String
    /// The item's label, e.g. `increment/my-lock/t8`.
    public var item: String
    /// What went wrong, as the run recorded it.
    public var reason: String

    /// The failed items a run document lists in `metadata.parameters.failed_items`.
    static func listed(in d: RunDocument) -> [FailedItem] {
        guard case .array(let items)? = d.metadata.parameters["failed_items"] else { return [] }
        return items.compactMap { entry in
            guard case .object(let o) = entry, case .string(let item)? = o["item"] else { return nil }
            let reason: String
            if case .string(let r)? = o["reason"] { reason = r } else { reason = "failed" }
            return FailedItem(workload: d.workload, item: item, reason: reason)
        }
    }

    /// True when the document is incomplete only because items failed: every planned item either
    /// finished or is listed as failed (an interrupted run stops short of that and is refused).
    static func accountsForIncompleteness(of d: RunDocument) -> Bool {
        let failed = listed(in: d).count
        guard !d.complete, failed > 0, let planned = d.plannedItems, let done = d.completedItems else { return false }
        return done + failed == planned
    }
}
