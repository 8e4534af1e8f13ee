/// Unit exponential variates by Marsaglia and Tsang's ziggurat (2000), 256 layers: the arrival
/// stream of `ArrivalIterator.streamVersion` 2.
///
/// Version 1 took `−log(U)` with `DeterministicMath.log`'s exact series for every inter-arrival
/// time, 28–31 % of bench-throttle's cycles. Here about 97.8 % of words (the layers' inner share,
/// from the tables) cost one generator step, one multiplication and one comparison; the rest fall
/// to an exact rejection test (`exp`) or to the tail (`R − log U`), both with `DeterministicMath`.
///
/// Bit-identical everywhere: the tables are built at first use from IEEE-754 basic operations and
/// `DeterministicMath` (itself only basic operations), never from libm and never from a literal
/// printed on another machine, and every draw is a fixed sequence of basic operations.
///
/// Each draw takes one 64-bit word: its low 8 bits pick the layer, its top 53 bits the position
/// in it (disjoint bits, so the two are independent). A rejection takes more words.
public struct ExponentialZiggurat: @unchecked Sendable {
    /// The right edge of the base layer's rectangle: the tail starts here.
    static let r = 7.69711747013104972
    /// The area of each of the 256 layers (the base layer's includes the tail).
    static let v = 0.0039496598225815571993

    /// `x[0] = v / e^−r` (the base layer's virtual width), `x[1] = r`, …, `x[256] = 0`: decreasing.
    /// Layer `i` is the rectangle `[0, x[i]] × [f[i], f[i+1]]`.
    let x: UnsafePointer<Double>
    /// `f[i] = e^−x[i]` (`f[0]` is unused).
    let f: UnsafePointer<Double>
    /// `x[i] · 2^−53`, so that `Double(j) · scaled[i]` equals `(Double(j) · 2^−53) · x[i]` exactly:
    /// a power-of-two scaling is exact, and both round the same real product once.
    let scaled: UnsafePointer<Double>

    /// The tables, built once per process (immutable afterwards, never freed).
    public static let shared = ExponentialZiggurat()

    init() {
        let x = UnsafeMutablePointer<Double>.allocate(capacity: 257)
        let f = UnsafeMutablePointer<Double>.allocate(capacity: 257)
        let scaled = UnsafeMutablePointer<Double>.allocate(capacity: 257)
        let r = Self.r
        let v = Self.v
        x[1] = r
        f[1] = DeterministicMath.exp(-r)
        x[0] = v / f[1]
        f[0] = DeterministicMath.exp(-x[0])
        // Each layer has area v: x[i−1] · (f[i] − f[i−1]) = v.
        for i in 2...255 {
            f[i] = v / x[i - 1] + f[i - 1]
            x[i] = -DeterministicMath.log(f[i])
        }
        x[256] = 0
        f[256] = 1
        for i in 0...256 { scaled[i] = x[i] * 0x1p-53 }
        self.x = UnsafePointer(x)
        self.f = UnsafePointer(f)
        self.scaled = UnsafePointer(scaled)
    }

    /// A unit exponential variate (mean 1) from `generator`.
    @inline(__always) public func next(_ generator: inout SeededGenerator) -> Double {
        let bits = generator.next()
        let i = Int(truncatingIfNeeded: bits & 0xff)
        let value = Double(bits >> 11) * scaled[i]
        if value < x[i + 1] { return value }
        return slow(layer: i, value: value, &generator)
    }

    /// The rare words (about 2.2 %): the tail, or a point of a layer's right edge tested against
    /// the density; a rejected point starts over with a new word.
    @inline(never) func slow(layer: Int, value: Double, _ generator: inout SeededGenerator) -> Double {
        var i = layer
        var value = value
        while true {
            if i == 0 {
                // Memorylessness: beyond r the tail is r plus a unit exponential.
                return Self.r - DeterministicMath.log(generator.nextOpenUnit())
            }
            let y = f[i] + (f[i + 1] - f[i]) * generator.nextUnit()
            if y < DeterministicMath.exp(-value) { return value }
            let bits = generator.next()
            i = Int(truncatingIfNeeded: bits & 0xff)
            value = Double(bits >> 11) * scaled[i]
            if value < x[i + 1] { return value }
        }
    }
}
