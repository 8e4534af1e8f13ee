import Foundation
import Measurement
import Records

extension ClockWorkload {
    /// What the report keeps of a run while its items stream past: the verdicts of each sim
    /// scenario's first repetition, the read costs, and per live item its table, comparisons,
    /// overheads and notes — never a simulated item's observations, so memory does not grow with
    /// `--seeds`.
    package struct Kept: Sendable {
        package var notes: [String] = []
        package var comparisons: [Comparison] = []
        package var derived: [LabelledObservations] = []
        package var table = ""
        package var baseline: [ReadCost.Sample] = []
        package var lastOverhead: [ClockReport.ReaderKey: Double] = [:]
        package var verdicts: [String: [ClientKind: [ClockKind: ClockReport.Verdict]]] = [:]
    }

    package var emptyAggregate: Kept { Kept() }

    package func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        switch (r.item, r.sample) {
        case let (.simulate(scenario, client, _, repetition), .simulated(runs)) where repetition == 0:
            for run in runs {
                let metrics = Dictionary(run.observations.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a })
                kept.verdicts[scenario.name, default: [:]][client, default: [:]][run.source] = ClockReport.verdict(client, metrics)
            }
        case let (.readCost, .readCost(costs)):
            kept.baseline = costs
        case let (.live(scenario, seed, repetition), .live(outcome)):
            let result = outcome.result
            if repetition == 0 {
                kept.comparisons += outcome.comparisons(seed: seed)
                var byClient: [ClientKind: [ClockKind: ClockReport.Verdict]] = [:]
                for run in result.runs {
                    let metrics = Dictionary(run.metrics.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a })
                    byClient[run.client, default: [:]][run.source] = ClockReport.verdict(run.client, metrics)
                }
                kept.table +=
                    "scenario \(scenario.name) (live, \(Int(configuration.liveDuration)) s; wall offset error \(TextTable.number(result.wallOffsetErrorMs)) ms, longest poll gap \(TextTable.number(result.maxPollGapMs)) ms)\n"
                kept.table += ClockReport.verdictTable(clients: clients, sources: sources, verdicts: byClient) + "\n"
            }
            if configuration.readCost, !kept.baseline.isEmpty {
                kept.lastOverhead = ClockReport.overhead(faked: result.readCosts, baseline: kept.baseline)
                for (key, value) in kept.lastOverhead.sorted(by: {
                    ($0.key.source.name, $0.key.reader) < ($1.key.source.name, $1.key.reader)
                }) {
                    kept.derived.append(
                        LabelledObservations(
                            scenario: scenario.name,
                            variant: key.source.name,
                            mode: "live",
                            seed: seed,
                            repetition: repetition,
                            factors: ["client": key.reader],
                            observations: [Observation("faketime_overhead_ns", value, "ns")]
                        )
                    )
                }
            }
            if outcome.dropped > 0 {
                kept.notes.append(
                    "\(scenario.name): \(outcome.dropped) event(s) beyond the \(Int(configuration.liveDuration)) s live run were dropped"
                )
            }
            if result.wallOffsetErrorMs > 5 {
                kept.notes.append(
                    "\(scenario.name): the wall clock was up to \(TextTable.number(result.wallOffsetErrorMs)) ms off the offset asked for (libfaketime rate changes are approximate)"
                )
            }
        default:
            break
        }
    }

    /// A whole list of finished items reported as the driver reports them after streaming (for tests).
    package func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        var kept = emptyAggregate
        for r in results { aggregate(&kept, r) }
        return try report(kept, summaries: [], complete: complete)
    }

    /// The report from what was kept; `summaries` is not read (the tables come from the verdicts).
    package func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        var notes = kept.notes
        let comparisons = kept.comparisons
        let derived = kept.derived
        var table = kept.table
        let baseline = kept.baseline
        let lastOverhead = kept.lastOverhead
        let verdicts = kept.verdicts
        switch configuration.mode {
        case .sim:
            if !baseline.isEmpty, BuildInfo.isDebug {
                notes.append("read costs come from a debug build; use `swift run -c release bench-clock` for figures worth quoting")
            }
            table =
                ClockReport.simTable(scenarios: scenarios, clients: clients, sources: sources, verdicts: verdicts)
                + ClockReport.costTable(baseline, overhead: nil)
        case .live:
            notes.append("live runs are compared with the same run simulated in the JSON's comparisons (metric = client/metric)")
            table += ClockReport.costTable(baseline, overhead: lastOverhead.isEmpty ? nil : lastOverhead)
        }
        return WorkloadReport(table: table, derived: derived, comparisons: comparisons, notes: notes)
    }

    package var parameters: [String: JSONValue] {
        var p: [String: JSONValue] = [
            "mode": .string(configuration.mode.rawValue),
            "scenarios": .array(scenarios.map { .string($0.name) }),
            "sources": .array(sources.map { .string($0.name) }),
            "clients": .array(clients.map { .string($0.name) }),
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "read_cost": .bool(configuration.readCost),
            "read_cost_repetitions": .number(Double(configuration.readCostRepetitions)),
        ]
        if configuration.mode == .live {
            p["live_duration_s"] = .number(configuration.liveDuration)
            p["timerfd_shim"] = .bool(!configuration.liveWithoutShim)
        }
        if let skew = configuration.skewPath {
            p["skew_file"] = .string(skew)
            p["skew_events"] = .array(
                scenarios.first!.events.map { e in
                    .object([
                        "at_s": .number(e.at), "kind": .string(e.kind.rawValue), "value": .number(e.value),
                        "duration_s": .number(e.duration),
                    ])
                }
            )
        }
        let params = configuration.mode == .sim ? ClientParameters.sim : ClientParameters.live
        if let data = try? JSONEncoder().encode(params), let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            p["client_parameters"] = value
        }
        return p
    }

    package static var catalogue: WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init("scenarios (--scenario)", SkewScenario.catalogue.map { .init($0.name, $0.summary) }),
                .init("variants = clock sources (--variant)", ClockKind.allCases.map { .init($0.name, $0.summary) }),
                .init("clients (--client)", ClientKind.allCases.map { .init($0.name, $0.summary) }),
            ],
            footer: [
                "--skew FILE: CSV with header \(SkewFileReader.header); kind step (value s), slew (value ppm for duration_s), suspend (duration_s), drift (value ppm, duration_s or empty)"
            ]
        )
    }
}
