import ArgumentParser

/// `I/N`: run part I (1-based) of N of a matrix. Item k belongs to part (k mod N) + 1, so the parts
/// are disjoint, cover the matrix, and differ in size by at most one.
package struct ShardSpec: ExpressibleByArgument, Hashable, Sendable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    package init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(i) else {
            return nil
        }
        self.init(index: i, count: n)
    }

    package static var defaultCompletionKind: CompletionKind { .default }

    package var description: String { "\(index)/\(count)" }

    package func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
