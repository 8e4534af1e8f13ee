import ArgumentParser
import BenchCommandLine
import Foundation
import Measurement
import Simulation
import Timekeeping

/// `bench-clock`: how wrong each timing client gets on each clock while the clock is skewed.
@main
struct BenchClock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-clock",
        abstract: "Monotonic vs wall-clock timing while the clock is stepped, slewed, drifting or suspended.",
        discussion: """
        Variants are clock sources (date, realtime, monotonic, monotonic-raw, boottime); scenarios are \
        skew scenarios (see --list) or a --skew FILE with header at_s,kind,value,duration_s. \
        Sim mode (default) is virtual time and deterministic; live mode runs the real process under \
        libfaketime (Debian package faketime).
        """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "sim (virtual time, deterministic) or live (real clocks under libfaketime).")
    var mode: Mode = .sim

    @Option(name: .long, help: ArgumentHelp("A skew scenario CSV (at_s,kind,value,duration_s) to run instead of the named ones.", valueName: "file"))
    var skew: String?

    @Option(name: .long, help: ArgumentHelp("Timing clients to run (comma-separated or repeated); see --list.", valueName: "name"))
    var client: [String] = []

    @Flag(name: .long, help: "Skip the clock read-cost measurement.")
    var noReadCost = false

    @Option(name: .long, help: ArgumentHelp("Repetitions of the read-cost loops.", valueName: "n"))
    var readCostRepetitions = 7

    @Option(name: .long, help: ArgumentHelp("Seconds each live scenario runs (4…600).", valueName: "s"))
    var liveDuration = 5.0

    @Flag(name: .long, help: "Live mode without the timerfd shim, to reproduce libfaketime's timer hang (the child is killed).")
    var liveWithoutShim = false

    @Option(name: .long, help: .hidden)
    var liveChild: String?

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case sim, live
    }

    /// Scenarios live mode runs when none is named: the steps that break wall-clock code.
    static let defaultLiveScenarios = ["leap-second", "step-minus-1h", "step-plus-1h"]
    /// `--quick`: a smoke test over one scenario of each kind (sim), or the leap second (live).
    static let quickScenarios = ["none", "leap-second", "step-minus-1h", "chrony-slew-83333ppm", "strobe-50ms-500ms", "suspend-10min"]

    static func main() { BenchMain.run(Self.self) }

    func validate() throws {
        guard (1...100).contains(readCostRepetitions) else { throw ValidationError("--read-cost-repetitions must be between 1 and 100, got \(readCostRepetitions)") }
        guard liveDuration.isFinite, (4...600).contains(liveDuration) else { throw ValidationError("--live-duration must be between 4 and 600 seconds, got \(liveDuration)") }
    }

    func run() throws {
        if let liveChild {
            do { try LiveHarness.runChild(planPath: liveChild) } catch { throw BenchFailure.runtime(error.description) }
            return
        }
        if common.list {
            print(ClockReport.listing())
            return
        }
        let scenarios = try resolveScenarios()
        let sources = try common.resolve(common.variants, flag: "--variant", from: ClockKind.allCases, name: \.name)
        let clients = try common.resolve(CommonOptions.splitList(client), flag: "--client", from: ClientKind.allCases, name: \.name)
        switch mode {
        case .sim: try runSim(scenarios: scenarios, sources: sources, clients: clients)
        case .live: try runLive(scenarios: scenarios, sources: sources, clients: clients)
        }
    }

    func resolveScenarios() throws -> [SkewScenario] {
        if let skew {
            guard common.scenarios.isEmpty else { throw BenchFailure.usage("--skew and --scenario cannot be combined") }
            do { return [try SkewFileReader.read(path: skew)] } catch {
                throw error.line == nil && error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
            }
        }
        if mode == .live, common.scenarios.isEmpty {
            return (common.quick ? ["leap-second"] : Self.defaultLiveScenarios).compactMap(SkewScenario.named)
        }
        if common.quick, common.scenarios.isEmpty {
            return Self.quickScenarios.compactMap(SkewScenario.named)
        }
        return try common.resolve(common.scenarios, flag: "--scenario", from: SkewScenario.catalogue, name: \.name)
    }

    // MARK: sim

    func runSim(scenarios: [SkewScenario], sources: [ClockKind], clients: [ClientKind]) throws {
        var output = try RunOutput(workload: "clock", options: common)
        let seeds = common.seedList(default: 1)
        var matrix: [(SkewScenario, ClientKind)] = scenarios.flatMap { s in clients.map { (s, $0) } }
        if let shard = common.shard { matrix = shard.select(matrix) }
        var progress = Progress(total: matrix.count * seeds.count, quiet: common.quiet)
        var verdicts: [String: [ClientKind: [ClockKind: ClockReport.Verdict]]] = [:]
        for (repetition, seed) in seeds.enumerated() {
            for (scenario, client) in matrix {
                let schedule = ClockSchedule(scenario: scenario)
                for source in sources {
                    let observations = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: source, seed: seed)
                    output.add(observations, scenario: scenario.name, variant: source.name, mode: "sim", seed: seed, repetition: repetition, factors: ["client": client.name])
                    if repetition == 0 {
                        let metrics = Dictionary(observations.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a })
                        verdicts[scenario.name, default: [:]][client, default: [:]][source] = ClockReport.verdict(client, metrics)
                    }
                }
                progress.advance("\(scenario.name) \(client.name)")
            }
        }
        progress.finish()
        var notes: [String] = []
        var costs: [ReadCost.Sample] = []
        if !noReadCost {
            BenchMain.warnIfDebug("bench-clock measures clock read costs", quiet: common.quiet)
            costs = ReadCost.measure(sources: sources, iterations: common.quick ? 20_000 : 200_000, repetitions: common.quick ? min(3, readCostRepetitions) : readCostRepetitions)
            for c in costs {
                output.add(ReadCost.observations(c), scenario: "read-cost", variant: c.source.name, mode: "live", seed: common.seed, repetition: c.repetition, factors: ["client": c.reader])
            }
            if BuildInfo.isDebug { notes.append("read costs come from a debug build; use `swift run -c release bench-clock` for figures worth quoting") }
        }
        _ = try output.finish(factorNames: ["client"], parameters: parameters(scenarios, sources, clients, seeds), notes: notes) {
            ClockReport.simTable(scenarios: scenarios, clients: clients, sources: sources, verdicts: verdicts) + ClockReport.costTable(costs, overhead: nil)
        }
    }

    // MARK: live

    func runLive(scenarios: [SkewScenario], sources: [ClockKind], clients: [ClientKind]) throws {
        do { _ = try LiveHarness.checkAvailable() } catch { throw BenchFailure.unavailable(error.description) }
        BenchMain.warnIfDebug("bench-clock live mode measures real clocks", quiet: common.quiet)
        var output = try RunOutput(workload: "clock", options: common)
        let seeds = common.seedList(default: 1)
        let baseline = noReadCost ? [] : ReadCost.measure(sources: sources, iterations: 100_000, repetitions: 5)
        for c in baseline {
            output.add(ReadCost.observations(c), scenario: "read-cost", variant: c.source.name, mode: "live", seed: common.seed, repetition: c.repetition, factors: ["client": c.reader])
        }
        var notes: [String] = []
        var comparisons: [Comparison] = []
        var table = ""
        var lastOverhead: [String: Double] = [:]
        var progress = Progress(total: scenarios.count * seeds.count, quiet: common.quiet)
        for (repetition, seed) in seeds.enumerated() {
            for scenario in scenarios {
                let outcome: LiveHarness.Outcome
                do {
                    outcome = try LiveHarness.run(
                        scenario: scenario, clients: clients, sources: sources, seed: seed, duration: liveDuration,
                        useShim: !liveWithoutShim, readCostIterations: 100_000, readCostRepetitions: noReadCost ? 0 : 5
                    )
                } catch {
                    throw BenchFailure.runtime(error.description)
                }
                let r = outcome.result
                if repetition == 0 { comparisons += outcome.comparisons(seed: seed) }
                var verdicts: [ClientKind: [ClockKind: ClockReport.Verdict]] = [:]
                for run in r.runs {
                    let observations = run.metrics.map { Observation($0.metric, $0.value, $0.unit) }
                    output.add(observations, scenario: scenario.name, variant: run.source.name, mode: "live", seed: seed, repetition: repetition, factors: ["client": run.client.name])
                    verdicts[run.client, default: [:]][run.source] = ClockReport.verdict(run.client, Dictionary(observations.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a }))
                }
                output.add(outcome.harnessObservations, scenario: scenario.name, variant: "harness", mode: "live", seed: seed, repetition: repetition, factors: ["client": "harness"])
                if !noReadCost {
                    for c in r.readCosts {
                        output.add(ReadCost.observations(c), scenario: scenario.name, variant: c.source.name, mode: "live", seed: seed, repetition: c.repetition, factors: ["client": c.reader])
                    }
                    lastOverhead = ClockReport.overhead(faked: r.readCosts, baseline: baseline)
                    for (key, value) in lastOverhead.sorted(by: { $0.key < $1.key }) {
                        let parts = key.split(separator: "|").map(String.init)
                        output.add([Observation("faketime_overhead_ns", value, "ns")], scenario: scenario.name, variant: parts[0], mode: "live", seed: seed, repetition: repetition, factors: ["client": parts[1]])
                    }
                }
                if outcome.dropped > 0 { notes.append("\(scenario.name): \(outcome.dropped) event(s) beyond the \(Int(liveDuration)) s live run were dropped") }
                if r.wallOffsetErrorMs > 5 { notes.append("\(scenario.name): the wall clock was up to \(TextTable.number(r.wallOffsetErrorMs)) ms off the offset asked for (libfaketime rate changes are approximate)") }
                if repetition == 0 {
                    table += "scenario \(scenario.name) (live, \(Int(liveDuration)) s; wall offset error \(TextTable.number(r.wallOffsetErrorMs)) ms, longest poll gap \(TextTable.number(r.maxPollGapMs)) ms)\n"
                    table += ClockReport.verdictTable(clients: clients, sources: sources, verdicts: verdicts) + "\n"
                }
                progress.advance(scenario.name)
            }
        }
        progress.finish()
        let costs = baseline
        var params = parameters(scenarios, sources, clients, seeds)
        params["live_duration_s"] = .number(liveDuration)
        params["timerfd_shim"] = .bool(!liveWithoutShim)
        notes.append("live runs are compared with the same run simulated in the JSON's comparisons (metric = client/metric)")
        _ = try output.finish(factorNames: ["client"], parameters: params, comparisons: comparisons, notes: notes) {
            table + ClockReport.costTable(costs, overhead: lastOverhead.isEmpty ? nil : lastOverhead)
        }
    }

    func parameters(_ scenarios: [SkewScenario], _ sources: [ClockKind], _ clients: [ClientKind], _ seeds: [UInt64]) -> [String: JSONValue] {
        var p: [String: JSONValue] = [
            "mode": .string(mode.rawValue),
            "scenarios": .array(scenarios.map { .string($0.name) }),
            "sources": .array(sources.map { .string($0.name) }),
            "clients": .array(clients.map { .string($0.name) }),
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "read_cost": .bool(!noReadCost),
            "read_cost_repetitions": .number(Double(readCostRepetitions)),
        ]
        if let skew {
            p["skew_file"] = .string(skew)
            p["skew_events"] = .array(scenarios.first!.events.map { e in
                .object(["at_s": .number(e.at), "kind": .string(e.kind.rawValue), "value": .number(e.value), "duration_s": .number(e.duration)])
            })
        }
        let params = mode == .sim ? ClientParameters.sim : ClientParameters.live
        if let data = try? JSONEncoder().encode(params), let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            p["client_parameters"] = value
        }
        return p
    }
}
