import Differential
import Simulation

/// bench-readiness's differential case: one small launch (its blocks with their kinds,
/// registrations, costs and services, the services' costs, the user's inputs) run by two
/// coordinators' sim forms on the workload's own `SimMainExecutor`.
///
/// **Its log**: one `start` event per block run, at the virtual nanosecond it started, detail
/// `block=<id> <kind>` (` off-main` when it ran on a background thread); `app-ready` and `ui-ready`
/// when those flags became true; all in time order (ties in the order they happened). A broken
/// contract ends the log with a `violation` event. Block ids are registration order, the same for
/// both variants, so the log says which block each design started when.
public struct ReadinessCase: DifferentialCase, Hashable {
    /// One readiness block.
    public struct Block: Codable, Hashable, Sendable {
        /// `will`, `did`, `ui` or `polite`.
        public var kind: String
        public var mainAppOnly: Bool
        /// `launch`, `main` (from main-thread code at `atNs`) or `off-main` (a background thread at `atNs`).
        public var registration: String
        public var atNs: Int64
        public var durationNs: Int64
        public var estimateNs: Int64
        public var services: [Int]
        public var priority: Int

        enum CodingKeys: String, CodingKey {
            case kind
            case mainAppOnly = "main_app_only"
            case registration
            case atNs = "at_ns"
            case durationNs = "duration_ns"
            case estimateNs = "estimate_ns"
            case services, priority
        }
    }

    /// One user input: when it arrives and the service its handler touches.
    public struct Input: Codable, Hashable, Sendable {
        public var atNs: Int64
        public var service: Int

        enum CodingKeys: String, CodingKey {
            case atNs = "at_ns"
            case service
        }
    }

    /// `main-app`, `nse` or `share-extension`.
    public var context: String
    /// `eager`, `lazy-registry` or `lazy-once`.
    public var globals: String
    public var serviceCostsNs: [Int64]
    public var blocks: [Block]
    public var inputs: [Input]

    enum CodingKeys: String, CodingKey {
        case context, globals
        case serviceCostsNs = "service_costs_ns"
        case blocks, inputs
    }

    public static let workload = "readiness"

    public var size: Int { blocks.count + inputs.count }

    /// A coordinator without a sim form cannot run a virtual-time launch.
    public static func refusal(_ variant: ReadinessVariant) -> String? {
        variant.hasSimForm ? nil : "\(variant.name) has no sim form (a ReadinessPolicy); a differential run needs one"
    }

    static let services = 4

    /// 1–12 blocks (will and ui at launch; did and polite also registered later, from main or a
    /// background thread; a third of polite ones main-app-only), 0–4 inputs in a context with a
    /// screen, four services costing up to 2 ms.
    public static func random(_ g: inout SeededGenerator) -> ReadinessCase {
        let contexts = ProcessContext.allCases
        let context = g.nextUnit() < 0.6 ? .mainApp : contexts[Int(g.nextInt(in: 0...Int64(contexts.count - 1)))]
        let globals = GlobalsStrategy.allCases[Int(g.nextInt(in: 0...Int64(GlobalsStrategy.allCases.count - 1)))]
        let costs = (0..<services).map { _ in g.nextInt(in: 0...2_000_000) }
        var blocks: [Block] = []
        for _ in 0..<Int(g.nextInt(in: 1...12)) {
            let u = g.nextUnit()
            let kind: BlockKind = u < 0.15 ? .will : u < 0.4 ? .did : u < 0.5 ? .ui : .polite
            var registration = "launch"
            var at: Int64 = 0
            if kind == .did || kind == .polite, g.nextUnit() < 0.3 {
                registration = g.nextUnit() < 0.5 ? "main" : "off-main"
                at = registration == "main" ? g.nextInt(in: 500_000_000...1_800_000_000) : g.nextInt(in: 0...1_800_000_000)
            }
            let duration = g.nextInt(in: 100_000...20_000_000)
            let estimate = Int64((Double(duration) * (0.5 + 1.5 * g.nextUnit())).rounded())
            let serviceCount = Int(g.nextInt(in: 0...2))
            blocks.append(
                Block(
                    kind: kind.rawValue,
                    mainAppOnly: kind == .polite && g.nextUnit() < 0.3,
                    registration: registration,
                    atNs: at,
                    durationNs: duration,
                    estimateNs: estimate,
                    services: (0..<serviceCount).map { _ in Int(g.nextInt(in: 0...Int64(services - 1))) },
                    priority: kind == .polite ? Int(g.nextInt(in: 0...2)) : 0
                )
            )
        }
        var inputs: [Input] = []
        if context.hasUI {
            for _ in 0..<Int(g.nextInt(in: 0...4)) {
                inputs.append(Input(atNs: g.nextInt(in: 200_000_000...2_000_000_000), service: Int(g.nextInt(in: 0...Int64(services - 1)))))
            }
            inputs.sort { $0.atNs < $1.atNs }
        }
        return ReadinessCase(context: context.rawValue, globals: globals.rawValue, serviceCostsNs: costs, blocks: blocks, inputs: inputs)
    }

    /// Runs the variant's sim form on this launch.
    public func observe(_ variant: ReadinessVariant) -> [ObservedEvent] {
        guard variant.hasSimForm else { return [ObservedEvent(atNs: 0, kind: "violation", detail: "no sim form")] }
        let plan = self.plan
        let recorder: LaunchRecorder
        do {
            recorder = try SimMainExecutor.run(plan: plan, globals: GlobalsStrategy(rawValue: globals) ?? .eager, variant: variant)
        } catch {
            return [ObservedEvent(atNs: 0, kind: "violation", detail: "\(error)")]
        }
        var log: [ObservedEvent] = recorder.allRuns.map { run in
            ObservedEvent(
                atNs: run.start.nanoseconds,
                kind: "start",
                detail: "block=\(run.block.id) \(run.block.kind.rawValue)\(run.onMain ? "" : " off-main")"
            )
        }
        if let t = recorder.appReady { log.append(ObservedEvent(atNs: t.nanoseconds, kind: "app-ready")) }
        if let t = recorder.uiReady { log.append(ObservedEvent(atNs: t.nanoseconds, kind: "ui-ready")) }
        // Stable: events at one instant keep the order they were recorded in.
        return log.enumerated().sorted { ($0.element.atNs, $0.offset) < ($1.element.atNs, $1.offset) }.map(\.element)
    }
}
