/// What each thread does to the shared wrapper, once per operation: the `scenario` column.
public enum ContentionOperation: String, CaseIterable, Sendable, Hashable {
    /// `AtomicValue.update { $0 += 1 }`.
    case increment
    /// 90 % `withValue` reads, 10 % `update { $0 += 1 }` writes, chosen by a seeded generator.
    case readMostly = "read-mostly"
    /// Alternately `tryToSetFlag()` and `tryToClearFlag()` on one `AtomicFlag`.
    case flag
    /// `transition(from: s, to: s + 1)` on an `AtomicState<UInt64>` from the thread's last known
    /// state; on failure the thread reads the current state (in the same operation).
    case transition
    /// `AtomicDictionary.update(key:)` adding 1 to one of 64 keys chosen by a seeded generator.
    case dictionaryUpdate = "dictionary-update"
    /// `AtomicArray.append`; every 64th operation of a thread also drains the array with
    /// `removeAll()` (returning the old contents).
    case arrayAppendDrain = "array-append-drain"
    /// Every thread runs `update { $0 += 1 }` on its *own* `AtomicValue`: nothing is shared but the
    /// lock, so per-object locks never contend and Signal's process-wide lock always does.
    case differentAtomics = "different-atomics"

    package var name: String { rawValue }

    /// The operations of the default run.
    package static let defaultSlice: [ContentionOperation] = [.increment, .readMostly, .differentAtomics]

    /// Operations on a single integer-like value, which lock-free atomics can also express.
    package var isCounterLike: Bool {
        switch self {
        case .increment, .readMostly, .flag, .transition: true
        case .dictionaryUpdate, .arrayAppendDrain, .differentAtomics: false
        }
    }

    package var summary: String {
        switch self {
        case .increment: "update { $0 += 1 } on an AtomicValue"
        case .readMostly: "90% get / 10% update { $0 += 1 }"
        case .flag: "tryToSetFlag / tryToClearFlag alternately"
        case .transition: "transition(from: s, to: s + 1), re-reading the state on failure"
        case .dictionaryUpdate: "dictionary update of one of 64 keys"
        case .arrayAppendDrain: "array append; every 64th op drains with removeAll"
        case .differentAtomics: "update { $0 += 1 } on each thread's own AtomicValue (only a shared lock is shared)"
        }
    }
}
