import Foundation
import XCTest

@testable import Simulation

/// The arrival stream of version 2 (`ExponentialZiggurat`): the right distribution, and the same
/// bits everywhere.
final class ExponentialZigguratTests: XCTestCase {
    static let n = 1_000_000

    /// `n` draws of seed 2026, sorted.
    static func sortedDraws(_ draw: (inout SeededGenerator) -> Double = { ExponentialZiggurat.shared.next(&$0) }) -> [Double] {
        var generator = SeededGenerator(seed: 2026)
        var draws = [Double](repeating: 0, count: n)
        for i in 0..<n { draws[i] = draw(&generator) }
        draws.sort()
        return draws
    }

    /// The ziggurat's own sorted draws, made once for the test and its control (a million draws
    /// in a debug build are most of either test's time).
    static var draws: [Double] { samples.draws }

    /// The control's draws: the ziggurat without its rejection step (each layer's rectangle taken
    /// whole, and the tail cut at r), sorted.
    static func rectanglesOnlyDraw(_ generator: inout SeededGenerator) -> Double {
        let z = ExponentialZiggurat.shared
        let bits = generator.next()
        let i = Int(bits & 0xff)
        return min(Double(bits >> 11) * z.scaled[i], ExponentialZiggurat.r)
    }

    /// Both sets of draws, made once, side by side (each is a single-threaded second and
    /// a half in a debug build; one after another they were most of the two tests' time).
    static let samples: (draws: [Double], rectanglesOnly: [Double]) = {
        nonisolated(unsafe) var rectanglesOnly: [Double] = []
        let done = DispatchSemaphore(value: 0)
        Thread {
            rectanglesOnly = sortedDraws(rectanglesOnlyDraw)
            done.signal()
        }.start()
        let draws = sortedDraws()
        done.wait()
        return (draws, rectanglesOnly)
    }()

    /// Kolmogorov–Smirnov distance of sorted draws from the unit exponential's CDF `1 − e^−x`.
    static func ksDistance(_ sorted: [Double]) -> Double {
        let n = Double(sorted.count)
        var d = 0.0
        for (i, x) in sorted.enumerated() {
            let cdf = -expm1(-x)
            d = max(d, Double(i + 1) / n - cdf, cdf - Double(i) / n)
        }
        return d
    }

    /// Mean and variance within 5 standard errors of 1 (the exponential's variance of the sample
    /// variance is 8/n), the KS distance under its 1 % critical value 1.63/√n, and the tail beyond
    /// the ziggurat's edge r (its own path) as often as e^−r predicts. The seed is fixed, so this
    /// cannot flake; the controls below show that the same checks see a wrong distribution.
    func testDistributionIsTheUnitExponential() {
        let draws = Self.draws
        let n = Double(Self.n)
        let mean = draws.reduce(0, +) / n
        let variance = draws.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        XCTAssertEqual(mean, 1, accuracy: 5 / n.squareRoot())
        XCTAssertEqual(variance, 1, accuracy: 5 * (8 / n).squareRoot())
        XCTAssertLessThan(Self.ksDistance(draws), 1.63 / n.squareRoot())
        XCTAssertTrue(draws.allSatisfy { $0 >= 0 && $0.isFinite })
        let tail = Double(draws.count(where: { $0 > ExponentialZiggurat.r }))
        let expected = n * exp(-ExponentialZiggurat.r)
        XCTAssertEqual(tail, expected, accuracy: 5 * expected.squareRoot(), "tail beyond r: \(tail), expected \(expected)")
    }

    /// Controls: a mean 1 % off, and the ziggurat without its rejection step (each layer's
    /// rectangle taken whole, and the tail cut at r), both fail the KS check of the test above.
    func testTheChecksSeeAWrongDistribution() {
        let n = Double(Self.n)
        let scaled = Self.draws.map { $0 * 1.01 }  // scaling keeps the order: the sorted scaled draws
        XCTAssertGreaterThan(Self.ksDistance(scaled), 1.63 / n.squareRoot())
        XCTAssertGreaterThan(Self.ksDistance(Self.samples.rectanglesOnly), 1.63 / n.squareRoot())
    }

    /// Each of the 256 layers has the area v (the base layer's includes the tail), up to the
    /// rounding of the tables' construction; the top layer closes at x = 0, f = 1.
    func testLayersHaveEqualArea() {
        let z = ExponentialZiggurat.shared
        let v = ExponentialZiggurat.v
        let tail = exp(-ExponentialZiggurat.r)  // ∫ from r of e^−x
        XCTAssertEqual(ExponentialZiggurat.r * z.f[1] + tail, v, accuracy: v * 1e-12)
        for i in 1...255 {
            XCTAssertEqual(z.x[i] * (z.f[i + 1] - z.f[i]), v, accuracy: v * 1e-6, "layer \(i)")
            XCTAssertGreaterThan(z.x[i], z.x[i + 1])
        }
        XCTAssertEqual(z.x[256], 0)
        XCTAssertEqual(z.f[256], 1)
    }

    /// Frozen bits: the tables and the first draws of seed 42, the same on every machine and in
    /// debug and release, because nothing on the path uses libm. A failure here means virtual-time
    /// results are no longer comparable across machines (or the stream changed: then
    /// `ArrivalIterator.streamVersion` must change with it).
    func testTablesAndDrawsAreFrozen() {
        let z = ExponentialZiggurat.shared
        var tableHash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0...256 {
            for word in [z.x[i].bitPattern, z.f[i].bitPattern] {
                tableHash = (tableHash ^ word) &* 0x0000_0100_0000_01B3
            }
        }
        XCTAssertEqual(tableHash, GoldenValues.zigguratTableHash)
        var generator = SeededGenerator(seed: 42)
        var drawHash: UInt64 = 0xcbf2_9ce4_8422_2325
        var first: [UInt64] = []
        for k in 0..<100_000 {
            let bits = z.next(&generator).bitPattern
            if k < 4 { first.append(bits) }
            drawHash = (drawHash ^ bits) &* 0x0000_0100_0000_01B3
        }
        XCTAssertEqual(first, GoldenValues.zigguratFirstDraws)
        XCTAssertEqual(drawHash, GoldenValues.zigguratDrawHash)
    }
}
