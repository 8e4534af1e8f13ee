/// Frozen outputs of the seeded generators; see `testGoldenPoissonTrace`.
///
/// (commit time in ns, rows) for Poisson 10/s, geometric rows of mean 3, seed 42, arrival stream
/// version 2 (`ArrivalIterator.streamVersion`; re-recorded for the ziggurat, the rows are
/// version 1's). Any change to the generator, the seeding or the math must update them
/// deliberately, with a new stream version, because it changes every virtual-time result.
enum GoldenValues {
    static let poissonSeed42: [[Int64]] = [
        [218_802, 1], [4_401_346, 1], [42_126_382, 6],
        [45_127_905, 1], [106_099_992, 1], [123_269_283, 11],
    ]

    /// FNV-1a over the bit patterns of `ExponentialZiggurat`'s tables (x[0...256], f[0...256]).
    static let zigguratTableHash: UInt64 = 14_987_624_776_555_890_929
    /// The first four unit exponential draws of seed 42, as bit patterns.
    static let zigguratFirstDraws: [UInt64] = [
        4_599_841_563_600_482_364, 4_603_962_944_219_452_987, 4_606_043_039_746_228_860, 4_608_027_976_091_842_659,
    ]
    /// FNV-1a over the bit patterns of the first 100,000 draws of seed 42.
    static let zigguratDrawHash: UInt64 = 13_991_705_886_262_228_222
}
