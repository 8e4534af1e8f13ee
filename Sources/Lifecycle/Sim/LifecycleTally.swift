import Records

/// What one item's sessions did, counted as they happen: the metrics of docs/bench-lifecycle.md.
package struct LifecycleTally: Sendable, Hashable, Codable {
    package var sessions = 0
    /// Changes acknowledged to the user (shown as done).
    package var acknowledged = 0
    /// Acknowledged changes missing from the state the next launch found.
    package var acknowledgedLost = 0
    /// Launches that found the stored state unreadable (torn).
    package var corruptLaunches = 0
    package var watchdogKills = 0
    /// Background tasks (beginBackgroundTask) that reached their expiration.
    package var backgroundTaskExpirations = 0
    /// Apps killed for not ending a background task in time.
    package var expirationKills = 0
    package var jetsamKills = 0
    package var silentKills = 0
    package var refreshWindows = 0
    package var refreshSuccesses = 0
    /// Refresh windows that ran into the OS's 30 s budget.
    package var refreshExpirations = 0
    package var saves = 0
    /// Saves that wrote what storage already held.
    package var duplicateSaves = 0
    package var launchFailureScreens = 0
    /// Sessions that ended in a watchdog, expiration or jetsam kill.
    package var crashedSessions = 0
    package var coldTTI: [Double] = []
    package var resumeTTI: [Double] = []
    package var backgroundPeakMB = 0.0
    /// Background entries whose footprint was above the limit.
    package var backgroundOverLimit = 0

    package init() {}

    package func observations(limitMB: Double) -> [Observation] {
        func pct(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : 100 * Double(a) / Double(b) }
        return [
            Observation("acked_lost", Double(acknowledgedLost), "count"),
            Observation("acked_changes", Double(acknowledged), "count"),
            Observation("corrupt_launches", Double(corruptLaunches), "count"),
            Observation("watchdog_kills", Double(watchdogKills), "count"),
            Observation("bg_task_expirations", Double(backgroundTaskExpirations), "count"),
            Observation("expiration_kills", Double(expirationKills), "count"),
            Observation("jetsam_kills", Double(jetsamKills), "count"),
            Observation("refresh_windows", Double(refreshWindows), "count"),
            Observation("refresh_expirations", Double(refreshExpirations), "count"),
            Observation("sync_success_pct", pct(refreshSuccesses, refreshWindows), "percent"),
            Observation("saves", Double(saves), "count"),
            Observation("duplicate_saves", Double(duplicateSaves), "count"),
            Observation("launch_failure_screens", Double(launchFailureScreens), "count"),
            Observation("crash_free_sessions_pct", pct(sessions - crashedSessions, sessions), "percent"),
            Observation("tti_cold_p50_ms", Statistics.median(coldTTI) ?? .nan, "ms"),
            Observation("tti_resume_p50_ms", Statistics.median(resumeTTI) ?? .nan, "ms"),
            Observation("bg_peak_memory_mb", backgroundPeakMB, "MB"),
            Observation("bg_peak_over_limit", backgroundPeakMB / limitMB, "ratio"),
            Observation("bg_entries_over_limit", Double(backgroundOverLimit), "count"),
        ]
    }
}
