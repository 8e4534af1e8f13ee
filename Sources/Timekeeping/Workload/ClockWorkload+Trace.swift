import Timelines

extension ClockWorkload {
    package static let hasTrace = true

    /// A sim item's timelines, one per clock source: the client's track, the `clock` track and the
    /// `clock error` counter (`ClockTrace`). Live items and read costs record none: the live
    /// clients run in a child process under libfaketime, which reports only their metrics.
    package func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        guard case let (.simulate(scenario, client, seed, repetition), .simulated(runs)) = (item, sample) else { return [] }
        return runs.filter { !$0.trace.isEmpty }.map { run in
            ItemTrace(
                scenario: scenario.name,
                variant: run.source.name,
                mode: "sim",
                seed: seed,
                repetition: repetition,
                events: run.trace,
                detail: client.name
            )
        }
    }

    package func withoutTimeline(_ sample: Sample) -> Sample {
        guard case .simulated(let runs) = sample else { return sample }
        return .simulated(runs.map { ($0.source, $0.observations, []) })
    }
}
