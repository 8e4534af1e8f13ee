import Records

extension ThrottleParameters {
    /// The parameters as the run's JSON metadata records them (`parameters` of the results file),
    /// so that a run's pipeline is never lost: the driver merges these into its own.
    public var metadata: [String: JSONValue] {
        [
            "fixed_interval_ms": .number(fixedInterval.milliseconds),
            "debounce_ms": .number(debounceInterval.milliseconds),
            "max_age_ms": .number(maxAge.milliseconds),
            "pipeline": .string(pipeline.rawValue),
        ]
    }
}

extension DeviceProfile {
    /// The device's model constants for the JSON metadata, including the landing costs and frame
    /// jitter that the conversation pipeline added.
    public var metadata: [String: JSONValue] {
        [
            "name": .string(name),
            "frame_ms": .number(frameCost.milliseconds),
            "frame_jitter_max_ms": .number(frameJitter.milliseconds),
            "notification_ms": .number(notificationCost.milliseconds),
            "tick_ms": .number(tickCost.milliseconds),
            "update_fixed_ms": .number(updateFixed.milliseconds),
            "update_per_row_ms": .number(updatePerRowNs / 1e6),
            "update_per_row_squared_ms": .number(updatePerRowSquaredNs / 1e6),
            "reset_ms": .number(resetCost.milliseconds),
            "reset_threshold_rows": .number(Double(resetThreshold)),
            "land_fixed_ms": .number(landFixed.milliseconds),
            "land_per_row_ms": .number(landPerRowNs / 1e6),
            "land_reset_ms": .number(landResetCost.milliseconds),
        ]
    }
}
