import BenchCommandLine
import Foundation
import Measurement
import Simulation
import Throttling

/// The resolved matrix of one invocation: which scenarios, policies and seeds, validated.
struct RunPlan {
    struct Item {
        var scenario: ThrottleScenario
        var policy: ThrottlePolicy
        var seed: UInt64
        var repetition: Int
    }

    let common: CommonOptions
    let options: ThrottleOptions
    let scenarios: [ThrottleScenario]
    let policies: [ThrottlePolicy]
    let seeds: [UInt64]
    /// A user trace replaces the generated arrivals (and the seed then only labels the run); it is
    /// validated once here and streamed from the file by every policy.
    let userTrace: TraceFile?
    let items: [Item]

    init(common: CommonOptions, options: ThrottleOptions) throws {
        self.common = common
        self.options = options
        policies = try common.resolve(common.variants, flag: "--variant", from: ThrottlePolicy.allCases, name: \.rawValue)
        let devices = try common.resolve(
            CommonOptions.splitList(options.device), flag: "--device", from: DeviceProfile.all, name: \.name
        )
        var scenarios: [ThrottleScenario]
        if let path = options.trace {
            let file: TraceFile
            do { file = try TraceReader.open(path: path) } catch {
                throw error.message == "no such file" ? BenchFailure.missingInput(error.description) : BenchFailure.input(error.description)
            }
            userTrace = file
            guard common.scenarios.isEmpty else {
                throw BenchFailure.usage("--scenario and --trace cannot be combined: the trace is the scenario")
            }
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let span = file.summary.span + .milliseconds(1)
            let chosen = options.device.isEmpty ? DeviceProfile.all : devices
            scenarios = chosen.map { device in
                ThrottleScenario(
                    name: "trace-\(name)-\(device.name)", summary: "replay of \(path) on a \(device.name) device",
                    arrivals: .poisson(rate: 1, rows: .fixed(1)), duration: span, device: device
                )
            }
        } else {
            userTrace = nil
            // Live runs take real time: by default one scenario, the slow-device storm.
            let requested = common.scenarios.isEmpty && options.mode == .live ? ["storm-slow"] : common.scenarios
            scenarios = try common.resolve(requested, flag: "--scenario", from: ThrottleScenario.catalog, name: \.name)
            try options.checkEffect(on: scenarios, quick: common.quick)
            if !options.device.isEmpty {
                scenarios = scenarios.flatMap { s in
                    devices.map { d in
                        var copy = s
                        copy.device = d
                        if devices.count > 1 || d != s.device { copy.name = "\(s.name)@\(d.name)" }
                        return copy
                    }
                }
            }
        }
        let replaying = options.trace != nil
        scenarios = scenarios.map { s in
            var copy = s
            if let hz = options.vsyncHz { copy.vsyncHz = hz }
            if let rate = options.rate, !replaying {
                copy.arrivals = .poisson(rate: rate, rows: .geometric(mean: 3))
            }
            if let d = options.duration, !replaying {
                copy.duration = .seconds(d)
            } else if common.quick, !replaying {
                copy = copy.scaled(by: 0.3)
            }
            return copy
        }
        self.scenarios = scenarios
        let defaultSeeds = options.mode == .live || replaying ? 1 : 3
        seeds = common.seedList(default: defaultSeeds)
        var items: [Item] = []
        for scenario in scenarios {
            for (repetition, seed) in seeds.enumerated() {
                for policy in policies {
                    items.append(Item(scenario: scenario, policy: policy, seed: seed, repetition: repetition))
                }
            }
        }
        self.items = common.shard.map { $0.select(items) } ?? items
    }

    func trace(for scenario: ThrottleScenario, seed: UInt64) -> CommitTrace {
        if let userTrace { return .file(userTrace) }
        return .pregenerated(scenario.arrivals, seed: seed, duration: scenario.duration)
    }

    /// Every parameter of the run, for the JSON metadata.
    var parameters: [String: JSONValue] {
        var p: [String: JSONValue] = [
            "mode": .string(options.mode.rawValue),
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "variants": .array(policies.map { .string($0.rawValue) }),
            "fixed_interval_ms": .number(options.fixedIntervalMs),
            "debounce_ms": .number(options.debounceMs),
            "max_age_ms": .number(options.maxAgeMs),
            "quick": .bool(common.quick),
            "items": .number(Double(items.count)),
        ]
        if let trace = options.trace { p["trace"] = .string(trace) }
        if let shard = common.shard { p["shard"] = .string(shard.description) }
        if options.mode == .live { p["background_threads"] = .number(Double(options.backgroundThreads)) }
        p["scenarios"] = .array(scenarios.map(Self.describe))
        return p
    }

    static func describe(_ s: ThrottleScenario) -> JSONValue {
        let d = s.device
        var arrivals: [String: JSONValue] = ["model": .string(s.arrivals.name)]
        for (k, v) in s.arrivals.parameters { arrivals[k] = .number(v) }
        return .object([
            "name": .string(s.name),
            "summary": .string(s.summary),
            "duration_s": .number(s.duration.seconds),
            "vsync_hz": .number(Double(s.vsyncHz)),
            "load": .string(s.load.name),
            "bytes_per_pending_row": .number(Double(s.bytesPerPendingRow)),
            "arrivals": .object(arrivals),
            "device": .object([
                "name": .string(d.name),
                "frame_ms": .number(d.frameCost.milliseconds),
                "notification_ms": .number(d.notificationCost.milliseconds),
                "tick_ms": .number(d.tickCost.milliseconds),
                "update_fixed_ms": .number(d.updateFixed.milliseconds),
                "update_per_row_ms": .number(d.updatePerRowNs / 1e6),
                "update_per_row_squared_ms": .number(d.updatePerRowSquaredNs / 1e6),
                "reset_ms": .number(d.resetCost.milliseconds),
                "reset_threshold_rows": .number(Double(d.resetThreshold)),
            ]),
        ])
    }
}
