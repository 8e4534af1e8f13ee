import XCTest

@testable import Simulation

/// The simulator's fast paths must give exactly what the code they replaced gave: the
/// same rows, the same rounding, the same event order. Each test compares with the original
/// computation, and shows where a fast path alone would have been wrong (the control).
final class FastPathEquivalenceTests: XCTestCase {
    /// `RowSampler` draws the same rows as `RowDistribution.sample` from the same generator.
    func testRowSamplerMatchesRowDistribution() {
        let distributions: [RowDistribution] = [
            .fixed(3), .uniform(12...20), .geometric(mean: 0.5), .geometric(mean: 1), .geometric(mean: 1.5),
            .geometric(mean: 2), .geometric(mean: 3), .geometric(mean: 4), .geometric(mean: 100), .geometric(mean: 1e7),
        ]
        for distribution in distributions {
            var a = SeededGenerator(seed: 7)
            var b = a
            let sampler = RowSampler(distribution)
            for i in 0..<100_000 {
                let expected = distribution.sample(&a)
                let got = sampler.sample(&b)
                guard expected == got else {
                    return XCTFail("\(distribution): draw \(i) gave \(got), RowDistribution.sample \(expected)")
                }
            }
        }
    }

    /// The branch-free count over the table's head decides exactly as the table walk
    /// does, at the edges of every band it covers (and of the entry past it), where a count off by
    /// one or a band edge taken with the wrong comparison would show. The control: the draws tried
    /// do fall inside bands (the undecided path) and just outside them (the decided one).
    func testRowSamplerHeadMatchesTableAtBandEdges() {
        var inside = 0
        var outside = 0
        for mean in [1.5, 2, 3, 100] {
            let distribution = RowDistribution.geometric(mean: mean)
            let sampler = RowSampler(distribution)
            XCTAssertEqual(sampler.headCount, 8, "mean \(mean): the head must be in use")
            for j in 0..<min(9, sampler.above.count) {
                for edge in [sampler.above[j], sampler.below[j]] {
                    let grid = (edge * 0x1p53).rounded(.down)
                    for d in -2...2 {
                        let u = (grid + Double(d)) * 0x1p-53
                        guard u > 0, u <= 1 else { continue }
                        var check = FixedUnitGenerator(u)
                        XCTAssertEqual(check.generator.nextOpenUnit(), u, "the fixed generator must draw u = \(u)")
                        if u >= sampler.below[j], u <= sampler.above[j] { inside += 1 } else { outside += 1 }
                        var rng = FixedUnitGenerator(u)
                        var reference = FixedUnitGenerator(u)
                        XCTAssertEqual(
                            sampler.sample(&rng.generator),
                            distribution.sample(&reference.generator),
                            "mean \(mean), u = \(u) at entry \(j)'s band"
                        )
                    }
                }
            }
        }
        XCTAssertGreaterThan(inside, 0, "no draw inside a band: the undecided path was not tried")
        XCTAssertGreaterThan(outside, 0, "no draw outside a band: the decided path was not tried")
    }

    /// Where log(u) / log(1 − p) is an integer (u = 2^-k, p = 1/2) the approximate logarithm
    /// alone can land on either side of it; the sampler must fall back to the exact series there.
    /// The control: the approximation does differ from the exact logarithm, so the fallback is
    /// what keeps these draws identical.
    func testRowSamplerFallsBackOnIntegerRatios() {
        let sampler = RowSampler(.geometric(mean: 2))
        var differs = false
        for k in 1...52 {
            let u = Double(sign: .plus, exponent: -k, significand: 1)
            if DeterministicMath.approximateLog(u) != DeterministicMath.log(u) { differs = true }
            var rng = FixedUnitGenerator(u)
            var reference = FixedUnitGenerator(u)
            var check = FixedUnitGenerator(u)
            XCTAssertEqual(check.generator.nextOpenUnit(), u, "the fixed generator must draw u = 2^-\(k)")
            XCTAssertEqual(sampler.sample(&rng.generator), RowDistribution.geometric(mean: 2).sample(&reference.generator), "u = 2^-\(k)")
        }
        let near = (1...200).map { Double(1 - 1e-3) + Double($0) * 1e-9 }
        for u in near where DeterministicMath.approximateLog(u) != DeterministicMath.log(u) { differs = true }
        XCTAssertTrue(differs, "the approximate logarithm equals the exact one everywhere tried: the fallback test proves nothing")
    }

    /// The approximation's error bound that the sampler's margin (1e-9) relies on: below 1e-13.
    func testApproximateLogIsWithinItsBound() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<200_000 {
            let u = rng.nextOpenUnit()
            let exact = DeterministicMath.log(u)
            let approximate = DeterministicMath.approximateLog(u)
            if exact == 0 {
                XCTAssertEqual(approximate, 0)
            } else {
                XCTAssertLessThan(abs(approximate - exact) / abs(exact), 1e-13, "u = \(u)")
            }
        }
    }

    /// `SimDuration.seconds` rounds like `Int64(x.rounded())`, ties away from zero, without libm.
    func testRoundingMatchesRounded() {
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52, 0x1p53 + 2, 4503599627370495.5, 1e15 + 0.5,
        ]
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<100_000 {
            let scale = Double(sign: .plus, exponent: Int(rng.nextInt(in: 0...60)), significand: 1)
            values.append((rng.nextUnit() * 2 - 1) * scale)
        }
        for x in values {
            XCTAssertEqual(SimDuration.roundedToInteger(x), Int64(x.rounded()), "x = \(x)")
        }
    }

    /// The binary heap pops what a sort by (time, priority, insertion) gives, and an event kept
    /// beside the queue with `takeSequence` orders among queued ones as if it had been queued.
    func testEventQueueMatchesAStableSort() {
        var rng = SeededGenerator(seed: 5)
        var queue = EventQueue<Int>()
        var reference: [(time: Int64, priority: UInt8, sequence: Int, id: Int)] = []
        var popped: [Int] = []
        var expected: [Int] = []
        var sequence = 0
        for id in 0..<6_000 {
            if rng.nextUnit() < 0.5 || queue.isEmpty {
                let time = rng.nextInt(in: 0...50)
                let priority = UInt8(rng.nextInt(in: 0...2))
                queue.schedule(id, at: SimInstant(nanoseconds: time), priority: priority)
                reference.append((time, priority, sequence, id))
                sequence += 1
            } else {
                popped.append(queue.next()!.event)
                let i = reference.indices.min { a, b in
                    let x = reference[a], y = reference[b]
                    return (x.time, x.priority, x.sequence) < (y.time, y.priority, y.sequence)
                }!
                expected.append(reference.remove(at: i).id)
            }
        }
        XCTAssertEqual(popped, expected)

        var q = EventQueue<String>()
        q.schedule("queued first", at: SimInstant(nanoseconds: 10))
        let kept = q.takeSequence()
        q.schedule("queued after", at: SimInstant(nanoseconds: 10))
        XCTAssertTrue(q.nextPrecedes(time: SimInstant(nanoseconds: 10), sequence: kept))
        _ = q.next()
        XCTAssertFalse(q.nextPrecedes(time: SimInstant(nanoseconds: 10), sequence: kept))
        XCTAssertTrue(q.nextPrecedes(time: SimInstant(nanoseconds: 11), sequence: kept))
    }
}

/// A generator whose next `nextOpenUnit()` is `u` (its 53-bit draw is chosen for it).
private struct FixedUnitGenerator {
    var generator: SeededGenerator
    init(_ u: Double) {
        // nextOpenUnit() = Double((next() >> 11) + 1) * 2^-53: find a state whose next() gives
        // the wanted 53 bits. xoshiro256**'s output is ((s1 * 5) <<< 7) * 9: pick s1 for it.
        let bits = UInt64(u * 0x1p53) - 1
        let output = bits << 11
        let inverse9: UInt64 = 0x8E38_E38E_38E3_8E39  // 9 · inverse9 ≡ 1 (mod 2^64)
        let inverse5: UInt64 = 0xCCCC_CCCC_CCCC_CCCD  // 5 · inverse5 ≡ 1 (mod 2^64)
        let rotated = output &* inverse9
        let s1 = ((rotated >> 7) | (rotated << 57)) &* inverse5
        generator = SeededGenerator(seed: 0)
        generator.s1 = s1
    }
}
