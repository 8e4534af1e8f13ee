import Simulation

/// An item on the main thread's FIFO queue (the same in virtual time and live).
enum MainThreadWork: Sendable {
    /// A commit's `DispatchQueue.main.async` block (its rows were committed before it runs).
    case notify(Commit)
    /// The frame queued at a vsync.
    case frame
    /// A tick of the policy's display link.
    case linkTick
    /// The policy's timer firing.
    case timer
    /// An update the policy asked for right after a frame.
    case publish(PublishAmount)
    /// The load stage's debounced `loadIfNecessary` (lastOnly 1 ms: a plain `async`).
    case loadIfNecessary
    /// A load built off the main thread lands on main.
    case land
}

enum PublishAmount: Sendable {
    case all
    case upTo(Int)

    init?(_ publish: ThrottleDecision.Publish) {
        switch publish {
        case .nothing: return nil
        case .all: self = .all
        case .upTo(let rows): self = .upTo(rows)
        }
    }
}
