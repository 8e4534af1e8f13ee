@testable import Locking

/// Runs a generic test body once per synchronized lock strategy.
protocol StrategyVisitor {
    mutating func visit<Lock: LockStrategy>(_ lock: Lock.Type, name: String)
}

enum SynchronizedStrategies {
    static func forEach(_ visitor: inout some StrategyVisitor) {
        visitor.visit(PThreadMutexLock.self, name: "pthread-mutex")
        visitor.visit(FoundationLock.self, name: "nslock")
        visitor.visit(DispatchQueueLock.self, name: "dispatch-queue")
        visitor.visit(SynchronizationMutexLock.self, name: "mutex")
        visitor.visit(SpinLock.self, name: "spinlock")
        visitor.visit(AdaptivePThreadMutexLock.self, name: "pthread-mutex-adaptive")
    }
}
