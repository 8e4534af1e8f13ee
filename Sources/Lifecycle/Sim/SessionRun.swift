import Measurement
import Simulation
import Timelines

/// One process lifetime: the session's transitions and the app's own events on one event queue.
struct SessionRun {
    enum Phase: String { case launching, active, inactive, background, suspended }

    enum Event {
        case script(Transition)
        case ready
        case clearLaunchCounter
        case commitDone
        case saveDone(id: Int, version: Int)
        case backgroundTaskExpired(id: Int)
        case trySuspend
        case death(Death)
    }

    enum Death: String { case watchdog, expiration, jetsam, silent, terminated }

    struct Save {
        var id: Int
        var start: Int64
        var end: Int64
        var content: Int
        var durability: LifecyclePolicy.Durability
        var onMain: Bool
        var version = 0
        var frozenRemaining: Int64?
    }

    let simulation: LifecycleSimulation
    let script: SessionScript
    let offset: Int64
    var policy: LifecyclePolicy { simulation.policy }
    var rules: OSRules { simulation.rules }
    var profile: AppProfile { simulation.profile }

    var queue = EventQueue<Event>()
    var alive = true
    var phase = Phase.launching
    var isReady = false
    var mainFree: Int64 = 0
    var writerFree: Int64 = 0
    var deferredInit: Int64 = 0
    var cacheMB = 0.0
    var purgedMB = 0.0
    var foregroundSince: Int64?
    var saves: [Save] = []
    var nextSaveID = 0
    var saveDraw = 0
    var observerDraw = 0
    var refreshDraw = 0
    var backgroundTask: (id: Int, expiry: Int64)?
    var nextTaskID = 0
    var refreshUntil: Int64 = 0
    var phaseSince: Int64 = 0
    var lastTime: Int64 = 0
    var events: [TraceEvent] = []
    /// How this process died, if it did.
    var killPoint: LifecycleSimulation.KillPoint?
    /// The first event that broke the lifecycle contract (`LifecycleContract`); the run stops there.
    var violation: ContractViolation?

    init(simulation: LifecycleSimulation, script: SessionScript, offset: Int64) {
        self.simulation = simulation
        self.script = script
        self.offset = offset
    }

    var footprintMB: Double { profile.baseMemoryMB + cacheMB }

    mutating func run(device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        for e in script.events { queue.schedule(.script(e.transition), at: e.time, priority: 1) }
        while alive, let (time, event) = queue.next() {
            let t = time.nanoseconds
            lastTime = offset + t
            handle(event, at: t, device: &device, tally: &tally)
        }
        if alive { lastTime = max(lastTime, offset + mainFree, offset + refreshUntil) }
    }

    // MARK: - Recording

    mutating func slice(_ name: TraceName, on track: TraceName, from start: Int64, to end: Int64) {
        guard simulation.record else { return }
        events.append(.slice(name, on: track, start: offset + start, duration: end - start))
    }

    mutating func instant(_ name: TraceName, at t: Int64, value: Double? = nil) {
        guard simulation.record else { return }
        events.append(.instant(name, on: "os", at: offset + t, value: value))
    }

    mutating func memory(at t: Int64) {
        guard simulation.record else { return }
        events.append(.counter("memory", unit: "MB", at: offset + t, value: footprintMB))
    }

    mutating func enter(_ next: Phase, at t: Int64) {
        if simulation.record { slice(TraceName(phase.rawValue), on: "app", from: phaseSince, to: t) }
        phase = next
        phaseSince = t
    }

    // MARK: - Costs

    mutating func observers(_ count: Int) -> Int64 {
        var total: Int64 = 0
        for _ in 0..<count {
            total += script.draws.observer(observerDraw)
            observerDraw += 1
        }
        return total
    }

    mutating func saveCost() -> Int64 {
        let f = script.draws.saveFactor(saveDraw)
        saveDraw += 1
        return Int64((Double(profile.fullSave.nanoseconds) * f).rounded())
    }

    /// Starts a full save of what the user sees; nil when the policy skips an unchanged state.
    mutating func startSave(at h: Int64, onMain: Bool, device: LifecycleSimulation.Device, tally: inout LifecycleTally) -> Save? {
        let content = device.acknowledged
        // What storage holds, or will once the saves already in flight land.
        let already = max(device.durable, saves.map(\.content).max() ?? 0)
        if policy.savesOnlyWhenDirty, content == already { return nil }
        tally.saves += 1
        if content == already { tally.duplicateSaves += 1 }
        let save = Save(id: nextSaveID, start: h, end: h + saveCost(), content: content, durability: policy.durability, onMain: onMain)
        nextSaveID += 1
        saves.append(save)
        queue.schedule(.saveDone(id: save.id, version: 0), at: SimInstant(nanoseconds: save.end))
        slice(onMain ? "save (main)" : "save", on: "storage", from: save.start, to: save.end)
        return save
    }
}
