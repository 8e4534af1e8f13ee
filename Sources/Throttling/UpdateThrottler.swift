// Placeholder replaced by the throttle policies.
enum ThrottlingPlaceholder {}
