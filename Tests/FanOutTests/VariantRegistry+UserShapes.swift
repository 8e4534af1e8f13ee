import Measurement

@testable import FanOut

extension VariantRegistry where Variant == FanOutVariant {
    /// Registers a user's shape that issues its calls concurrently, hedges them, runs every call to
    /// completion and waits with `join`: the shapes these tests hold against the suite's own.
    mutating func registerHedgedUserShape(_ name: String, join: FanOutShape.Join) throws {
        let shape = FanOutShape(issue: .concurrent, join: join, onFailure: .runToCompletion, hedged: true)
        try register(FanOutVariant(name: name, origin: .user, summary: "a user's hedged shape", shape: shape))
    }
}
