import Simulation

extension ReadinessCase {
    /// The case as the `LaunchPlan` the executor runs: blocks in registration order (launch ones
    /// first, then by time, ties in the case's order), numbered in that order.
    var plan: LaunchPlan {
        let context = ProcessContext(rawValue: context) ?? .mainApp
        var profile = LaunchProfile(context: context)
        profile.services = max(1, serviceCostsNs.count)
        profile.uiServices = profile.services
        func registration(_ b: Block) -> ReadinessBlock.Registration {
            switch b.registration {
            case "main": .main(SimInstant(nanoseconds: b.atNs))
            case "off-main": .offMain(SimInstant(nanoseconds: b.atNs))
            default: .launch
            }
        }
        func key(_ b: Block) -> Int64 { registration(b) == .launch ? -1 : b.atNs }
        let ordered = blocks.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
        let readinessBlocks = ordered.enumerated().map { i, b in
            ReadinessBlock(
                id: i,
                kind: BlockKind(rawValue: b.kind) ?? .polite,
                mainAppOnly: b.mainAppOnly,
                registration: registration(b),
                duration: SimDuration(nanoseconds: max(0, b.durationNs)),
                estimate: SimDuration(nanoseconds: max(0, b.estimateNs)),
                services: b.services.filter { $0 >= 0 && $0 < profile.services },
                intentPriority: b.priority
            )
        }
        let costs = serviceCostsNs.isEmpty ? [SimDuration.zero] : serviceCostsNs.map { SimDuration(nanoseconds: max(0, $0)) }
        let inputs =
            context.hasUI
            ? self.inputs.map {
                LaunchPlan.Input(time: SimInstant(nanoseconds: max(0, $0.atNs)), service: min(max(0, $0.service), profile.services - 1))
            }
            : []
        return LaunchPlan(profile: profile, seed: 0, blocks: readinessBlocks, serviceCosts: costs, inputs: inputs)
    }

    /// Drop a block or an input; register a late block at launch; zero a block's or a service's
    /// cost; drop a block's services; halve an input's or a registration's time; plain priorities
    /// and no main-app-only flags.
    public var shrinkCandidates: [ReadinessCase] {
        var out: [ReadinessCase] = []
        func with(_ change: (inout ReadinessCase) -> Void) {
            var copy = self
            change(&copy)
            out.append(copy)
        }
        if blocks.count > 1 { for i in blocks.indices { with { $0.blocks.remove(at: i) } } }
        for i in inputs.indices { with { $0.inputs.remove(at: i) } }
        for (i, b) in blocks.enumerated() {
            if b.registration != "launch" {
                with {
                    $0.blocks[i].registration = "launch"
                    $0.blocks[i].atNs = 0
                }
            }
            if b.durationNs > 0 || b.estimateNs > 0 {
                with {
                    $0.blocks[i].durationNs = 0
                    $0.blocks[i].estimateNs = 0
                }
            }
            if !b.services.isEmpty { with { $0.blocks[i].services = [] } }
            if b.mainAppOnly { with { $0.blocks[i].mainAppOnly = false } }
            if b.priority > 0 { with { $0.blocks[i].priority = 0 } }
            if b.registration != "launch", b.atNs > 0 { with { $0.blocks[i].atNs /= 2 } }
        }
        for (i, c) in serviceCostsNs.enumerated() where c > 0 { with { $0.serviceCostsNs[i] = 0 } }
        for (i, input) in inputs.enumerated() where input.atNs > 0 {
            with { $0.inputs[i].atNs /= 2 }
        }
        return out
    }
}
