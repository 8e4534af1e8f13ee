/// An array behind a lock with Signal's surface: append, and remove-all that hands back the old
/// contents (the "drain" a producer/consumer pair uses).
package final class AtomicArray<Element, Lock: LockStrategy> {
    let value: AtomicValue<[Element], Lock>

    package init(_ elements: [Element] = [], lock: Lock = Lock()) {
        value = AtomicValue(elements, lock: lock)
    }

    package var count: Int { value.withValue { $0.count } }

    /// A copy of the current contents.
    package var elements: [Element] { value.get() }

    /// Appends one element; `work` runs inside the critical section first.
    @inline(__always)
    package func append(_ element: Element, holding work: () -> Void = {}) {
        value.update {
            work()
            $0.append(element)
        }
    }

    package func append(contentsOf elements: some Sequence<Element>) {
        value.update { $0.append(contentsOf: elements) }
    }

    /// Empties the array and returns what it held, in one critical section.
    @inline(__always)
    package func removeAll() -> [Element] {
        // Swapping in a fresh empty array moves the old buffer out without copying it.
        value.swap([])
    }
}

// Sendable when the elements are: the array is only reached through an AtomicValue.
extension AtomicArray: @unchecked Sendable where Element: Sendable {}
