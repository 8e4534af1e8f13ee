import Records

extension LiveHarness.Outcome {
    /// How the harness itself did: did the process see the offsets asked for, did the 1 ms timer
    /// keep up, was the shim loaded. Recorded under variant and client `harness`.
    package var harnessObservations: [Observation] {
        [
            Observation("wall_offset_error_ms", result.wallOffsetErrorMs, "ms"),
            Observation("max_poll_gap_ms", result.maxPollGapMs, "ms"),
            Observation("polls", Double(result.polls), "count"),
            Observation("timerfd_shim_loaded", result.shimLoaded ? 1 : 0, "bool"),
        ]
    }

    /// Each live metric beside the same run simulated (same events, workload and parameters),
    /// named `client/metric` because a comparison has no factor column.
    package func comparisons(seed: UInt64) -> [Comparison] {
        let scenario = plan.simulatedScenario
        let schedule = ClockSchedule(scenario: scenario)
        var out: [Comparison] = []
        for run in result.runs {
            let sim = SimRunner.run(
                scenario: scenario,
                schedule: schedule,
                client: run.client,
                source: run.source,
                seed: seed,
                parameters: plan.parameters
            )
            for m in run.metrics {
                guard let s = sim.first(where: { $0.metric == m.metric }) else { continue }
                out.append(
                    Comparison(
                        scenario: self.scenario.name,
                        variant: run.source.name,
                        metric: "\(run.client.name)/\(m.metric)",
                        unit: m.unit,
                        sim: s.value,
                        live: m.value
                    )
                )
            }
        }
        return out
    }
}
