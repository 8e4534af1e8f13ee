/// A process lifecycle notification that may clear caches.
public enum LifecycleEvent: String, Sendable, Hashable {
    /// `OWSApplicationDidEnterBackground`.
    case background
    /// `UIApplicationDidReceiveMemoryWarning`.
    case memoryWarning = "memory-warning"
}

/// Which lifecycle events clear a cache, per generation of Signal's code.
public enum LifecycleRule: String, Sendable {
    /// 2018: memory warnings only, in every process.
    case signal2018
    /// 2021: memory warnings and background, in every process.
    case signal2021
    /// Today (the NSCache wrapper, and every policy measured under it): background only, in the
    /// main app only, and only for caches that opted in; no memory-warning handler.
    case current

    /// Whether `event` in `context` clears a cache under this rule.
    public func clears(on event: LifecycleEvent, in context: ProcessContext, profile: CacheProfile) -> Bool {
        switch (self, event) {
        case (.signal2018, .memoryWarning), (.signal2021, _): true
        case (.signal2018, .background): false
        case (.current, .background): context == .mainApp && profile.evacuatesInBackground
        case (.current, .memoryWarning): false
        }
    }
}
