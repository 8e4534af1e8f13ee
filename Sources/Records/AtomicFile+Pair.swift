extension AtomicFile.Staged {
    /// Puts this staged file in place, then `last` (staged by the closure, after this one): both
    /// are written in full before either is put in place, and the last goes last, so the only mix
    /// a crash between the renames can leave is a new first file beside an old last one. A failure
    /// at any step discards whatever is staged and not yet in place.
    ///
    /// The results CSV and JSON are such a pair (the JSON last: bench-gate detects a new CSV beside
    /// an old JSON, their records disagree, and refuses the folder).
    func commit(before last: () throws(AtomicFile.WriteError) -> AtomicFile.Staged) throws(AtomicFile.WriteError) {
        let staged: AtomicFile.Staged
        do { staged = try last() } catch {
            discard()
            throw error
        }
        do { try commit() } catch {
            staged.discard()
            throw error
        }
        try staged.commit()
    }
}
