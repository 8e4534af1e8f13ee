/// Frozen outputs of the seeded generators; see `testGoldenPoissonTrace`.
///
/// (commit time in ns, rows) for Poisson 10/s, geometric rows of mean 3, seed 42. Recorded once
/// from this implementation; any change to the generator, the seeding or the math must update
/// them deliberately, because it changes every virtual-time result.
enum GoldenValues {
    static let poissonSeed42: [[Int64]] = [
        [721_376_738, 1], [1_105_554_614, 1], [1_165_651_477, 6],
        [1_506_506_050, 1], [1_668_421_806, 1], [1_745_657_658, 11],
    ]
}
