import Measurement
import Simulation
import Testing

@testable import Lifecycle

@Suite struct LifecycleSimulationTests {
    @Test func placeholder() {}
}
