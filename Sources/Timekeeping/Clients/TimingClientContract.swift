import Measurement

/// What every `TimingClient` promises the harness that drives it (`SimRunner`, and live
/// `LiveSession`), checked on every run in both modes.
///
/// The clients are the suite's own (the role is not open: docs/your-own-variant.md says why), and
/// what a skewed clock makes them do wrong is the benchmark's finding, not a broken contract. What
/// the harness needs is that a wake-up is answered: a client woken at its deadline that asks for
/// the very same wake-up again, forever, would stop the run early and be scored on the part
/// before, without a word.
public enum TimingClientContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "clock client"

    /// How many wake-ups in a row may leave the client's request unchanged (a coarse clock may
    /// read just short of the deadline a few times; the harness steps past each) before the run
    /// is failed instead of cut short.
    public static let stallLimit = 100_000

    /// The same limit live, where a wake-up is due only once the client's own clock reads its
    /// deadline (the harness reads the clock the client reads), so a client that leaves the
    /// request as it was is woken again at the next 1 ms poll: 1,000 in a row is half a second or
    /// more of ignored wake-ups, while only a wall clock stepped back between two readings can
    /// leave an honest client's request unchanged, once. The sim's 100,000 would take 50 s of
    /// polls, longer than a live run.
    public static let liveStallLimit = 1_000

    /// A wake-up is answered.
    public static let answersItsWakes = ContractRule(
        role: role,
        statement: "a wake-up moves or clears the deadline it answered (not the same request 100,000 times in a row in sim, 1,000 live)"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [answersItsWakes]
}
