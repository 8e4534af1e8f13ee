/// How a workload runs: `sim` in virtual time (seeded, bit-identical on every machine) or `live` on
/// real threads, clocks and processes.
///
/// One type for every workload's `--mode`, so the command line parses it once and the
/// configurations take it as given (each keeps its `Mode` name as an alias).
public enum RunMode: String, CaseIterable, Sendable {
    case sim, live
}
