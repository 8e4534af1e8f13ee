/// The part of an AppReadiness the re-entry probes exercise.
package protocol ReadinessAPI: AnyObject, Sendable {
    var isAppReady: Bool { get }
    func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void)
    func setAppIsReady()
}
