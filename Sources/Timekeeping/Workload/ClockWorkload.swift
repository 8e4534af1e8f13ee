import Foundation
import Measurement
import Records
import Timelines

/// bench-clock as a `Workload`.
///
/// Sim mode: one item per (repetition, scenario, client) that runs the client on every clock
/// source in virtual time, then one item that measures the clocks' read costs. Live mode: one item
/// measuring the read costs without libfaketime, then one per (repetition, scenario) that runs the
/// scenario in a child process under libfaketime. Read costs and live items run alone.
package struct ClockWorkload: MatrixWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    package typealias Variant = ClockKind
    /// The scenarios `--scenario` (or `--skew`) chooses from (`matrix.scenarios`).
    package typealias Scenario = SkewScenario

    package enum Item: Sendable {
        case simulate(scenario: SkewScenario, client: ClientKind, seed: UInt64, repetition: Int)
        case readCost(iterations: Int, repetitions: Int)
        case live(scenario: SkewScenario, seed: UInt64, repetition: Int)
    }

    package enum Sample: Sendable {
        /// Per source, in the order of `sources`; `trace` is empty unless the run records timelines.
        case simulated([(source: ClockKind, observations: [Observation], trace: [TraceEvent])])
        case readCost([ReadCost.Sample])
        case live(LiveHarness.Outcome)
    }

    package static let name = "clock"
    package let configuration: ClockConfiguration
    package let environment: Environment
    /// The scenarios, clock sources (the variants), seeds and items of the run.
    package let matrix: Matrix
    package let clients: [ClientKind]
    package var factorNames: [String] { ["client"] }

    package init(configuration: ClockConfiguration, environment: Environment = Environment()) throws {
        self.configuration = configuration
        self.environment = environment
        var matrix = try Matrix(environment, resolvedScenarios: try Self.resolveScenarios(configuration, environment.selection), seeds: 1)
        clients = try MatrixSelection.resolve(configuration.clients, flag: "--client", from: ClientKind.allCases, name: \.name)
        var items: [Item] = []
        switch configuration.mode {
        case .sim:
            for (repetition, seed) in matrix.seeds.enumerated() {
                for scenario in matrix.scenarios {
                    for client in clients {
                        items.append(.simulate(scenario: scenario, client: client, seed: seed, repetition: repetition))
                    }
                }
            }
            if configuration.readCost {
                let quick = environment.selection.quick
                let repetitions = quick ? min(3, configuration.readCostRepetitions) : configuration.readCostRepetitions
                items.append(.readCost(iterations: quick ? 20_000 : 200_000, repetitions: repetitions))
            }
        case .live:
            do { _ = try LiveHarness.checkAvailable() } catch { throw BenchFailure.unavailable(error.description) }
            if configuration.readCost { items.append(.readCost(iterations: 100_000, repetitions: 5)) }
            for (repetition, seed) in matrix.seeds.enumerated() {
                for scenario in matrix.scenarios { items.append(.live(scenario: scenario, seed: seed, repetition: repetition)) }
            }
        }
        matrix.items = items
        self.matrix = matrix
    }

    /// The clock sources: the run's variants.
    package var sources: [ClockKind] { matrix.variants }

    static func resolveScenarios(_ configuration: ClockConfiguration, _ selection: MatrixSelection) throws -> [SkewScenario] {
        if let skew = configuration.skewPath {
            guard selection.scenarios.isEmpty else { throw BenchFailure.usage("--skew and --scenario cannot be combined") }
            do { return [try SkewFileReader.read(path: skew)] } catch {
                throw error.line == nil && error.message == "no such file"
                    ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
            }
        }
        if configuration.mode == .live, selection.scenarios.isEmpty {
            return (selection.quick ? ["leap-second"] : ClockConfiguration.defaultLiveScenarios).compactMap(SkewScenario.named)
        }
        if selection.quick, selection.scenarios.isEmpty {
            return ClockConfiguration.quickScenarios.compactMap(SkewScenario.named)
        }
        return try MatrixSelection.resolve(selection.scenarios, flag: "--scenario", from: SkewScenario.catalogue, name: \.name)
    }

    package func label(_ item: Item) -> String {
        switch item {
        case let .simulate(scenario, client, _, _): "\(scenario.name) \(client.name)"
        case .readCost: "read cost"
        case let .live(scenario, _, _): "\(scenario.name) live"
        }
    }

    package func timing(_ item: Item) -> ItemTiming {
        if case .simulate = item { return .virtual }
        return .real
    }

    package func run(_ item: Item) throws -> Sample {
        switch item {
        case let .simulate(scenario, client, seed, _):
            let schedule = ClockSchedule(scenario: scenario)
            var runs: [(ClockKind, [Observation], [TraceEvent])] = []
            for source in sources {
                let run = SimRunner.record(
                    scenario: scenario,
                    schedule: schedule,
                    client: client,
                    source: source,
                    seed: seed,
                    trace: recordTimeline
                )
                if let violation = run.violation { throw violation }
                runs.append((source, run.observations, run.trace))
            }
            return .simulated(runs)
        case let .readCost(iterations, repetitions):
            return .readCost(ReadCost.measure(sources: sources, iterations: iterations, repetitions: repetitions))
        case let .live(scenario, seed, _):
            let outcome: LiveHarness.Outcome
            do {
                outcome = try LiveHarness.run(
                    childCommand: configuration.liveChildCommand,
                    scenario: scenario,
                    clients: clients,
                    sources: sources,
                    seed: seed,
                    duration: configuration.liveDuration,
                    useShim: !configuration.liveWithoutShim,
                    readCostIterations: 100_000,
                    readCostRepetitions: configuration.readCost ? 5 : 0
                )
            } catch {
                throw BenchFailure.runtime(error.description)
            }
            if let violation = outcome.result.violation { throw violation }
            return .live(outcome)
        }
    }

    package func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        switch (item, sample) {
        case let (.simulate(scenario, client, seed, repetition), .simulated(runs)):
            return runs.map { run in
                LabelledObservations(
                    scenario: scenario.name,
                    variant: run.source.name,
                    mode: "sim",
                    seed: seed,
                    repetition: repetition,
                    factors: ["client": client.name],
                    observations: run.observations
                )
            }
        case let (.readCost, .readCost(costs)):
            return costs.map { c in
                LabelledObservations(
                    scenario: "read-cost",
                    variant: c.source.name,
                    mode: "live",
                    seed: selection.firstSeed,
                    repetition: c.repetition,
                    factors: ["client": c.reader],
                    observations: ReadCost.observations(c)
                )
            }
        case let (.live(scenario, seed, repetition), .live(outcome)):
            var out = outcome.result.runs.map { run in
                LabelledObservations(
                    scenario: scenario.name,
                    variant: run.source.name,
                    mode: "live",
                    seed: seed,
                    repetition: repetition,
                    factors: ["client": run.client.name],
                    observations: run.metrics.map { Observation($0.metric, $0.value, $0.unit) }
                )
            }
            out.append(
                LabelledObservations(
                    scenario: scenario.name,
                    variant: "harness",
                    mode: "live",
                    seed: seed,
                    repetition: repetition,
                    factors: ["client": "harness"],
                    observations: outcome.harnessObservations
                )
            )
            if configuration.readCost {
                out += outcome.result.readCosts.map { c in
                    LabelledObservations(
                        scenario: scenario.name,
                        variant: c.source.name,
                        mode: "live",
                        seed: seed,
                        repetition: c.repetition,
                        factors: ["client": c.reader],
                        observations: ReadCost.observations(c)
                    )
                }
            }
            return out
        default:
            return []
        }
    }
}
