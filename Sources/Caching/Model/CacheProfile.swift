/// One of Signal's real caches: its sizes per process and whether it opted in to being cleared
/// when the main app enters the background (`shouldEvacuateInBackground`).
///
/// Sizes are the callers' (signal-reference.md §7 and ProfileFetcher's
/// `LRUCache(maxSize: 16000, nseMaxSize: 4000)`); the NSE sizes and opt-ins of the UI caches are
/// the default (0, opted in) — Signal gives a non-zero NSE size to only four caches.
public struct CacheProfile: Sendable, Hashable {
    public var name: String
    public var maxSize: Int
    public var nseMaxSize: Int
    public var evacuatesInBackground: Bool

    public static let thread = CacheProfile(name: "thread", maxSize: 32, nseMaxSize: 0, evacuatesInBackground: true)
    public static let avatar = CacheProfile(name: "avatar", maxSize: 256, nseMaxSize: 0, evacuatesInBackground: true)
    public static let text = CacheProfile(name: "text", maxSize: 512, nseMaxSize: 0, evacuatesInBackground: true)
    public static let interaction = CacheProfile(name: "interaction", maxSize: 1024, nseMaxSize: 0, evacuatesInBackground: true)
    public static let profileFetch = CacheProfile(name: "profile-fetch", maxSize: 16000, nseMaxSize: 4000, evacuatesInBackground: false)

    /// The sizes of Signal's callers: the default capacity sweep.
    public static let signalSizes = [32, 256, 512, 1024, 16000]

    /// The same cache with another main-app size (the capacity sweep keeps the NSE size and opt-in).
    public func withMaxSize(_ size: Int) -> CacheProfile {
        var copy = self
        copy.maxSize = size
        return copy
    }
}
