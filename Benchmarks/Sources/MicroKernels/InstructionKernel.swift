/// One micro-benchmark as the instruction counter runs it: a fresh fixture, and a loop over it.
///
/// `prepare()` builds the fixture (outside anything measured) and returns the loop; calling the
/// loop with `count` runs `count` operations of the benchmark. The instruction counter runs it
/// once unmeasured, then with N and 2N operations inside the measured region, so the difference is
/// N operations: the region's fixed cost (a call, the loop's entry) cancels out.
public struct InstructionKernel: Sendable {
    /// `<Target>.<benchmark name>`: the same name the ordo-one benchmark has in its thresholds.
    public let name: String
    /// N: operations per measured region (2N in the second).
    public let operations: Int
    public let prepare: @Sendable () -> (Int) -> Void

    public init(name: String, operations: Int, prepare: @escaping @Sendable () -> (Int) -> Void) {
        self.name = name
        self.operations = operations
        self.prepare = prepare
    }
}

/// Keeps a value alive so the work producing it is not optimised away (ordo-one's `blackHole`,
/// without the dependency).
@inline(never)
public func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
