import Simulation

/// An item on the main thread's FIFO queue (the same in virtual time and live).
enum MainThreadWork: Sendable {
    /// A commit's database-change notification.
    case notify(Commit)
    /// The frame queued at a vsync.
    case frame
    /// A tick of the policy's display link.
    case linkTick
    /// The policy's timer firing.
    case timer
    /// An update the policy asked for right after a frame.
    case publish(PublishAmount)
}

enum PublishAmount: Sendable {
    case all, upTo(Int)

    init?(_ publish: ThrottleDecision.Publish) {
        switch publish {
        case .nothing: return nil
        case .all: self = .all
        case .upTo(let rows): self = .upTo(rows)
        }
    }
}
