@testable import Caching

extension CountBoundedCache where Key == String, Value == Int {
    /// Sets a = 1, b = 2, c = 3 in that order: the start of the hand-made timelines that pin each
    /// design's recency and eviction on a three-entry cache.
    func setABC() {
        set("a", 1)
        set("b", 2)
        set("c", 3)
    }
}
