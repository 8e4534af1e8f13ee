import Simulation

/// The fixed shape of a launch: how many blocks of each kind, how they are registered, what the
/// screen and the user do. `LaunchPlan.generate` draws one concrete launch from it per seed.
///
/// The block counts are Signal's (static count in Signal 7.96: ~7 will, ~15 did, 2 UI, ~40
/// polite, see docs/signal-fidelity.md); the durations and times are assumptions, documented in
/// docs/bench-readiness.md.
package struct LaunchProfile: Sendable {
    package var context: ProcessContext
    package var willCount = 7
    package var didCount = 15
    package var uiCount = 2
    package var politeCount = 40
    /// Polite blocks registered with `runNowOrWhenMainAppDidBecomeReadyAsync`.
    package var mainAppOnlyPolite = 12
    /// Of the did blocks: registered from background threads during launch, and from main-thread
    /// code after launch.
    package var didOffMain = 2
    package var didLater = 1
    /// Of the polite blocks: registered from background threads, and from main-thread code after launch.
    package var politeOffMain = 6
    package var politeLater = 6
    /// Off-main registrations happen in [0, this]; later main-thread ones in [0.5 s, this].
    package var registrationWindow = SimDuration.milliseconds(1_800)

    package var willDuration = DurationDistribution(minimum: .microseconds(100))
    package var didDuration = DurationDistribution(minimum: .microseconds(500))
    package var uiDuration = DurationDistribution(minimum: .milliseconds(1))
    package var politeDuration = DurationDistribution(minimum: .milliseconds(1))

    package var services = 200
    package var serviceCost = DurationDistribution(minimum: .microseconds(80), alpha: 1.6, cap: .milliseconds(20))
    /// A lazy registry's own setup: one closure per service.
    package var registrySetupPerService = SimDuration.microseconds(2)
    package var servicesPerBlock = 2
    /// Input handlers touch services among the first `uiServices` (the ones screens use).
    package var uiServices = 40

    package var displayHz = 60
    /// Main-thread time to produce one frame.
    package var frameCost = SimDuration.milliseconds(3)
    /// Open-loop taps and scrolls: Poisson at `inputRate` per second in [inputStart, inputEnd).
    package var inputRate = 10.0
    package var inputStart = SimInstant(nanoseconds: 200_000_000)
    package var inputEnd = SimInstant(nanoseconds: 3_000_000_000)
    package var inputCost = SimDuration.milliseconds(2)

    package init(context: ProcessContext) {
        self.context = context
    }

    /// One vsync period in integer nanoseconds (rounded down: 60 Hz → 16 666 666 ns).
    package var frameInterval: SimDuration { SimDuration(nanoseconds: 1_000_000_000 / Int64(displayHz)) }

    /// `--quick`: a shorter input window (the block population is unchanged).
    package func quick() -> LaunchProfile {
        var copy = self
        copy.inputEnd = SimInstant(nanoseconds: 1_500_000_000)
        copy.registrationWindow = .milliseconds(1_000)
        return copy
    }
}
