import Records

/// Turns a client's metrics into a verdict a reader can scan: did it break, and by how much.
package enum ClockReport {
    package struct Verdict: Sendable {
        package var broke: Bool
        package var text: String
    }

    /// The thresholds: a duration off by more than 1 ms or negative; any timeout, debounce or TTL
    /// decision more than the tolerance off; a rate limiter more than 1 % off its ideal count; the
    /// gate leaving commits unpublished for more than 1.1 s (its slowest target is 1 s), or
    /// publishing sooner than its fastest target (50 ms) after the previous publish.
    package static func verdict(_ client: ClientKind, _ m: [String: Double]) -> Verdict {
        func v(_ k: String) -> Double { m[k] ?? 0 }
        var parts: [String] = []
        switch client {
        case .durationMeter:
            if v("negative_durations") > 0 { parts.append("\(Int(v("negative_durations"))) negative") }
            if v("max_abs_error_us") > 1000 || !parts.isEmpty { parts.append("err \(human(microseconds: v("max_abs_error_us")))") }
        case .callDuration:
            // Broken only when the screen shows it: a negative time or the wrong whole second.
            if v("negative_durations") > 0 { parts.append("\(Int(v("negative_durations"))) negative") }
            if v("display_wrong_ticks") > 0 { parts.append("\(Int(v("display_wrong_ticks"))) wrong shown") }
            if !parts.isEmpty { parts.append("err \(human(microseconds: v("max_abs_error_us")))") }
        case .timeout, .debounceSignal, .debounceArticle:
            if v("timeouts_early") > 0 { parts.append("\(Int(v("timeouts_early"))) early") }
            if v("timeouts_late") > 0 { parts.append("\(Int(v("timeouts_late"))) late") }
            if v("timeouts_never") > 0 { parts.append("\(Int(v("timeouts_never"))) never") }
            if v("timeouts_early") + v("timeouts_late") > 0 { parts.append("by \(human(microseconds: v("timeout_error_ms") * 1000))") }
        case .rateLimiter:
            if v("admissions_over_pct") > 1 { parts.append("+\(TextTable.number(v("admissions_over_pct")))% admitted") }
            if v("admissions_under_pct") > 1 { parts.append("−\(TextTable.number(v("admissions_under_pct")))% admitted") }
        case .ttlCache:
            if v("ttl_expired_early") > 0 { parts.append("\(Int(v("ttl_expired_early"))) early") }
            if v("ttl_expired_late") > 0 { parts.append("\(Int(v("ttl_expired_late"))) late") }
        case .adaptiveGate:
            if v("max_publish_gap_ms") > 1100 { parts.append("no publish for \(human(microseconds: v("max_publish_gap_ms") * 1000))") }
            if v("publishes_early") > 0 { parts.append("\(Int(v("publishes_early"))) early") }
        }
        return Verdict(broke: !parts.isEmpty, text: parts.isEmpty ? "ok" : parts.joined(separator: ", "))
    }

    /// 850µs, 12ms, 3.6s, 1.00h, 1.00d, 1.00y (a year of 365 days).
    package static func human(microseconds us: Double) -> String {
        let units: [(String, Double)] = [("µs", 1), ("ms", 1e3), ("s", 1e6), ("h", 3600e6), ("d", 86_400e6), ("y", 365 * 86_400e6)]
        var (name, scale) = units[0]
        for (n, s) in units where abs(us) >= s * 0.9995 { (name, scale) = (n, s) }
        var value = us / scale
        // 0.9996 h reads better as 1.00h than as 1.000h.
        if abs(value) >= 0.9995, abs(value) < 1 { value = value < 0 ? -1 : 1 }
        return TextTable.number(value) + name
    }
}
