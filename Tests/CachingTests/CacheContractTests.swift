import ContractBreakers
import Foundation
import Measurement
import Simulation
import XCTest

@testable import Caching

/// Each rule of `CacheContract` fails a cache that breaks it, in virtual time and live, naming the
/// first violating call; the same cache without the fault (the control) passes.
final class CacheContractTests: XCTestCase {
    private func variant(_ fault: CacheFault) -> CacheVariant {
        CacheVariant(
            name: "faulty",
            origin: .user,
            summary: "x",
            sim: { c, _ in ContractCache<Int, Int>(capacity: c, fault: fault) },
            live: { c, _ in ContractCache<Int, CachedValue>(capacity: c, fault: fault) }
        )
    }

    /// A read of a key repeats at once now and then (key 1 twice in a row), on a capacity of 32.
    private func sim(_ fault: CacheFault) -> ContractViolation? {
        let keys = (0..<400).map { $0 % 50 == 0 ? 1 : $0 % 97 }
        let trace = AccessTrace(keys: keys, interval: .milliseconds(5))
        return CacheSimulation.run(variant: variant(fault), trace: trace, profile: .thread, context: .mainApp, seed: 1).violation
    }

    private func live(_ fault: CacheFault, _ operation: LiveOperation, for duration: SimDuration = .milliseconds(2)) -> ContractViolation? {
        let bench = LiveCacheBench(clock: SystemMonotonicClock(), duration: duration, jemalloc: nil)
        do {
            _ = try bench.run(operation, variant: variant(fault), capacity: 16, threads: 1, seed: 1)
            return nil
        } catch { return error }
    }

    func testACountOutsideTheCapacityFails() throws {
        let miscounted = try XCTUnwrap(sim(.miscounts))
        XCTAssertEqual(miscounted.rule, CacheContract.countWithinCapacity)
        XCTAssertEqual(miscounted.event, "before read 0 (get(1)) at 0 ms: count -9223372036854775808, capacity 32")
        let grown = try XCTUnwrap(sim(.growsPastCapacity))
        XCTAssertEqual(grown.event, "before read 34 (get(34)) at 170 ms: count 33, capacity 32")
        XCTAssertNil(sim(.none), "control: the same cache, evicting")
        // Live: the measured `set` calls insert new keys, which a cache that never evicts keeps
        // (50 ms: long enough for a batch of calls on a loaded host).
        XCTAssertEqual(live(.growsPastCapacity, .set, for: .milliseconds(50))?.event.hasPrefix("after the measured set calls: count"), true)
        for operation in [LiveOperation.get, .set, .clear] { XCTAssertNil(live(.none, operation), "control: \(operation)") }
        XCTAssertEqual(live(.miscounts, .get)?.event, "after filling 16 keys: count -9223372036854775808, capacity 16")
    }

    func testAGetRightAfterASetMustReturnIt() throws {
        let forgot = try XCTUnwrap(sim(.forgetsEverySet))
        XCTAssertEqual(forgot.rule, CacheContract.keepsWhatWasSet)
        XCTAssertEqual(forgot.event, "read 1: get(1) missed at 5 ms: set by read 0")
        XCTAssertEqual(live(.forgetsEverySet, .get)?.rule, CacheContract.keepsWhatWasSet)
        XCTAssertNil(sim(.none), "control")
        XCTAssertNil(live(.none, .get), "control")
    }

    /// The rule's one exception, measured on the platform: corelibs NSCache, once full, evicts the
    /// newcomer (`CorelibsNSCacheModel`); a cache full before the set may refuse it. Every
    /// built-in keeps the contract on the same reads.
    func testEveryBuiltInKeepsTheContract() {
        let keys = (0..<3000).map { $0 % 40 == 0 ? 7 : ($0 * 7919) % 300 }
        let trace = AccessTrace(keys: keys, interval: .milliseconds(1))
        for v in CacheVariant.builtIn {
            for profile in [CacheProfile.thread, .avatar] {
                let r = CacheSimulation.run(variant: v, trace: trace, profile: profile, context: .mainApp, seed: 1)
                XCTAssertNil(r.violation, "\(v.info.name) \(profile.name)")
            }
        }
    }

    /// The docs' contract table lists every rule, verbatim (control: a rule it does not list).
    func testTheDocsTableListsEveryRule() throws {
        let unwritten = ContractRule(role: CacheContract.role, statement: "a rule nobody wrote")
        XCTAssertEqual(try ContractTable.undocumented(CacheContract.rules + [unwritten], besideTest: #filePath), [unwritten])
    }
}
