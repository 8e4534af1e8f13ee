/// The ~2021 `ReadyFlag.ReadyTask.sort`: `tasks.sorted { $0.priority <= $1.priority }`.
///
/// `<=` is not a strict weak ordering. With every caller at the default priority 0 it answers
/// "in increasing order" for every pair in both directions, so Swift's sort sees one strictly
/// descending run and reverses it: the blocks run last-registered first. This is the real
/// standard-library sort, not a reimplementation — the test pins what it does.
package enum NonStrictPrioritySort {
    package static func sorted<T>(_ items: [T], priority: (T) -> Int) -> [T] {
        items.sorted { priority($0) <= priority($1) }
    }
}
