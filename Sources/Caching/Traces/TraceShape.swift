import Simulation

/// How a generated trace draws its keys. Each shape is a small, documented model of one way
/// Signal's UI reads a cache; all draw from a `SeededGenerator`, so a seed fixes the trace.
public enum TraceShape: Sendable, Hashable {
    /// Independent reads, Zipf(`skew`) over `keys` keys.
    case zipf(skew: Double, keys: Int)
    /// The chat list: `threads` conversations ordered by their last message (a message moves a
    /// Zipf(0.8)-chosen thread to the top with probability 0.05 per read); the user opens the
    /// thread at a geometric recency rank (mean 3); every `scanEvery` reads the user scrolls the
    /// whole list down to rank `scanDepth`, reading every row once (a scan).
    case chatScroll(threads: Int, scanEvery: Int, scanDepth: Int)
    /// A conversation view: `conversations` chats (Zipf 0.9 popularity); the reader looks up the
    /// interactions visible around a scroll position (a 25-row window), scrolls back in steps of
    /// 1–10 rows with probability 0.1 per read, and switches chats with probability 0.004.
    case interactionLookup(conversations: Int)
    /// A hot set of `hot` keys (Zipf 0.8) read 70 % of the time, interleaved with a sequential
    /// scan of keys never read again (30 %): the case a scan-resistant policy exists for.
    case scanMix(hot: Int)

    func generate(count: Int, seed: UInt64, zipf: (Int, Double) -> ZipfSampler) -> [Int] {
        var g = SeededGenerator.stream(1, of: seed)
        var keys: [Int] = []
        keys.reserveCapacity(count)
        switch self {
        case .zipf(let skew, let n):
            let z = zipf(n, skew)
            for _ in 0..<count { keys.append(z.next(&g)) }
        case .chatScroll(let threads, let scanEvery, let scanDepth):
            let popularity = zipf(threads, 0.8)
            var list = Array(0..<threads)
            while keys.count < count {
                if g.nextUnit() < 0.05 {
                    let t = popularity.next(&g)
                    if let i = list.firstIndex(of: t) {
                        list.remove(at: i)
                        list.insert(t, at: 0)
                    }
                }
                if keys.count > 0, keys.count % scanEvery == 0 {
                    for row in 0..<min(scanDepth, threads) where keys.count < count { keys.append(list[row]) }
                    continue
                }
                var rank = 0
                while rank < threads - 1, g.nextUnit() >= 0.25 { rank += 1 }
                keys.append(list[rank])
            }
        case .interactionLookup(let conversations):
            let popularity = zipf(conversations, 0.9)
            var conversation = popularity.next(&g)
            var position = 0
            for _ in 0..<count {
                if g.nextUnit() < 0.004 {
                    conversation = popularity.next(&g)
                    position = 0
                } else if g.nextUnit() < 0.1 {
                    position += Int(g.nextInt(in: 1...10))
                }
                let row = position + Int(g.nextInt(in: 0...24))
                keys.append(conversation * 1_000_000 + row)
            }
        case .scanMix(let hot):
            let z = zipf(hot, 0.8)
            var scan = 0
            for _ in 0..<count {
                if g.nextUnit() < 0.7 {
                    keys.append(z.next(&g))
                } else {
                    keys.append(10_000_000 + scan)
                    scan += 1
                }
            }
        }
        return keys
    }
}
