#if canImport(Glibc)
import Glibc
#endif

/// Keeps the memory a traced run frees for its next items instead of handing it back to the
/// kernel between them.
///
/// Each item records its timeline into a fresh array (bench-cache's items ~1–3 MB of
/// `TraceEvent`s each), and glibc's malloc returns such blocks to the kernel when they are freed
/// (one above its mmap threshold is unmapped; the top of a heap past its trim threshold is
/// released), so the next item's array is new pages, each a page fault: a traced default
/// bench-cache run took 46,000–70,000 minor faults against 7,500 untraced, about 0.1 s of system
/// time (release, AMD EPYC family 25, load 3–4). With the thresholds raised (blocks
/// under 32 MiB from the heap, the heap trimmed only past 256 MiB) the freed pages are reused:
/// 8,400 faults, the peak up to about 20 MB higher (60–67 MB against 49). Process-wide, and only asked for by a run that writes
/// a trace (`PerfettoStream`); glibc only — other C libraries keep their own policy.
enum FreedMemory {
    /// Called once, at the first `keepForReuse()`. `mallopt` is looked up at run time (Swift's
    /// Glibc module leaves out `malloc.h`); its parameters are those of glibc's `malloc.h`.
    private static let raised: Void = {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, 256 << 20)
        #endif
    }()

    static func keepForReuse() { Self.raised }
}
