import XCTest

@testable import Locking

/// The API semantics of each wrapper, on every lock strategy (and on the no-lock control, which is
/// correct on one thread).
enum Phase: Equatable { case idle, running, done }

final class WrapperSemanticsTests: XCTestCase {
    struct Semantics: StrategyVisitor {
        mutating func visit<Lock: LockStrategy>(_: Lock.Type, name: String) {
            // AtomicValue
            let value = AtomicValue<Int, Lock>(1)
            XCTAssertEqual(value.get(), 1, name)
            value.set(5)
            XCTAssertEqual(value.get(), 5, name)
            XCTAssertEqual(value.swap(7), 5, "swap returns the old value (\(name))")
            XCTAssertEqual(value.get(), 7, name)
            let doubled = value.update { v -> Int in
                v *= 2
                return v + 1
            }
            XCTAssertEqual(doubled, 15, "update returns the closure's result (\(name))")
            XCTAssertEqual(value.get(), 14, name)
            XCTAssertEqual(value.withValue { $0 * 10 }, 140, name)

            // AtomicFlag: each call reports whether it changed the flag.
            let flag = AtomicFlag<Lock>()
            XCTAssertFalse(flag.isSet, name)
            XCTAssertFalse(flag.tryToClearFlag(), "clearing a clear flag fails (\(name))")
            XCTAssertTrue(flag.tryToSetFlag(), name)
            XCTAssertFalse(flag.tryToSetFlag(), "setting a set flag fails (\(name))")
            XCTAssertTrue(flag.isSet, name)
            var ran = false
            XCTAssertTrue(flag.tryToClearFlag(holding: { ran = true }), name)
            XCTAssertTrue(ran, "the work closure runs inside the call (\(name))")
            XCTAssertFalse(flag.isSet, name)

            // AtomicState: transitions from the wrong state fail and change nothing.
            let state = AtomicState<Phase, Lock>(.idle)
            XCTAssertFalse(state.transition(from: .running, to: .done), name)
            XCTAssertEqual(state.state, .idle, name)
            XCTAssertTrue(state.transition(from: .idle, to: .running), name)
            XCTAssertFalse(state.transition(from: .idle, to: .running), "a repeated transition fails (\(name))")
            XCTAssertTrue(state.transition(from: .running, to: .done), name)
            XCTAssertEqual(state.state, .done, name)

            // AtomicArray: append, and removeAll returning the old contents.
            let array = AtomicArray<Int, Lock>()
            array.append(1)
            array.append(2)
            array.append(contentsOf: [3, 4])
            XCTAssertEqual(array.count, 4, name)
            XCTAssertEqual(array.elements, [1, 2, 3, 4], name)
            XCTAssertEqual(array.removeAll(), [1, 2, 3, 4], name)
            XCTAssertEqual(array.count, 0, name)
            XCTAssertEqual(array.removeAll(), [], name)

            // AtomicDictionary: subscript get/set/remove and update.
            let dictionary = AtomicDictionary<String, Int, Lock>()
            XCTAssertNil(dictionary["a"], name)
            dictionary["a"] = 1
            XCTAssertEqual(dictionary["a"], 1, name)
            dictionary.update(key: "a") { $0 = ($0 ?? 0) + 10 }
            dictionary.update(key: "b") { $0 = ($0 ?? 0) + 2 }
            XCTAssertEqual(dictionary.contents, ["a": 11, "b": 2], name)
            let old = dictionary.update(key: "a") { v -> Int? in
                defer { v = nil }
                return v
            }
            XCTAssertEqual(old, 11, name)
            XCTAssertNil(dictionary["a"], "setting an entry to nil removes it (\(name))")
            dictionary["b"] = nil
            XCTAssertEqual(dictionary.count, 0, name)
        }
    }

    func testEveryWrapperOnEveryStrategy() {
        var semantics = Semantics()
        SynchronizedStrategies.forEach(&semantics)
        semantics.visit(UnsynchronizedLock.self, name: "unsynchronized (single thread)")
    }

    func testLockStrategiesExcludeEachOther() {
        // A lock held by one thread keeps a second thread out until it is released.
        struct Exclusion: StrategyVisitor {
            mutating func visit<Lock: LockStrategy>(_: Lock.Type, name: String) {
                let lock = Lock()
                let inside = AtomicValue<Int, PThreadMutexLock>(0)
                let maxInside = AtomicValue<Int, PThreadMutexLock>(0)
                _ = try? ThreadTeam.run(count: 4) { _ in
                    for _ in 0..<500 {
                        lock.withLock {
                            let now = inside.update { v -> Int in
                                v += 1
                                return v
                            }
                            maxInside.update { $0 = max($0, now) }
                            inside.update { $0 -= 1 }
                        }
                    }
                }
                XCTAssertEqual(maxInside.get(), 1, "at most one thread inside \(name)")
            }
        }
        var exclusion = Exclusion()
        SynchronizedStrategies.forEach(&exclusion)
    }
}
