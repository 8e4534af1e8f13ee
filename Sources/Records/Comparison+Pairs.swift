extension Comparison {
    /// The live-versus-simulated loop every live mode runs once per item: for each metric of
    /// `metrics` (every live metric, in live order, when nil) observed in both runs, one
    /// comparison with the simulated observation's unit. A metric missing from either side is
    /// left out rather than compared with nothing.
    public static func pairs(
        scenario: String,
        variant: String,
        sim: [Observation],
        live: [Observation],
        metrics: [String]? = nil
    ) -> [Comparison] {
        (metrics ?? live.map(\.metric)).compactMap { metric in
            guard let s = sim.first(where: { $0.metric == metric }), let l = live.first(where: { $0.metric == metric }) else {
                return nil
            }
            return Comparison(scenario: scenario, variant: variant, metric: metric, unit: s.unit, sim: s.value, live: l.value)
        }
    }
}
