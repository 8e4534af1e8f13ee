import Foundation

/// Progress on stderr, unless `--quiet`: items done of the total, elapsed time and an estimate of
/// the time left.
///
/// On a terminal it is one bar redrawn in place after every item, and once a second while an item
/// runs (so elapsed time moves). Anywhere else (a CI log, a file) a redrawn bar would be noise and
/// silence looks like a hang, so it is one plain line every `logInterval`: at the first item that
/// finishes that long after the last line, or at a `tick()` (the driver ticks while it waits) when
/// none did — a run whose one long item takes minutes still says it is alive — and a last line at
/// the end when any was printed. Time is read only through `now` (seconds since any origin), so
/// tests drive it.
package struct Progress {
    package enum Style: Sendable { case off, terminal, log }

    let total: Int
    let style: Style
    let name: String
    let logInterval: Double
    let now: () -> Double
    let emit: (String) -> Void
    let start: Double
    var done = 0
    var lastLine: Double
    var linesLogged = 0
    /// The last label `advance` was given (what a log line names as last finished).
    var lastLabel = ""

    /// - Parameters:
    ///   - name: what the log lines start with (`bench-atomics`).
    ///   - isTerminal: whether stderr is a terminal (read from the process when nil).
    package init(
        total: Int,
        quiet: Bool,
        name: String = "",
        isTerminal: Bool? = nil,
        logInterval: Double = 10,
        now: @escaping () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
        emit: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.total = max(total, 1)
        self.style = quiet ? .off : (isTerminal ?? (isatty(STDERR_FILENO) == 1)) ? .terminal : .log
        self.name = name
        self.logInterval = logInterval
        self.now = now
        self.emit = emit
        self.start = now()
        self.lastLine = start
    }

    package mutating func advance(_ label: String) {
        done += 1
        lastLabel = label
        switch style {
        case .off: return
        case .terminal: drawBar()
        case .log: logIfDue()
        }
    }

    /// Called while items run (the driver calls it each time it wakes, about every 20 ms): a log
    /// line when `logInterval` has passed since the last one, though no item finished; on a
    /// terminal the bar redrawn once a second.
    package mutating func tick() {
        switch style {
        case .off: return
        case .terminal: if now() - lastLine >= 1 { drawBar() }
        case .log: logIfDue()
        }
    }

    private mutating func drawBar() {
        lastLine = now()
        let width = 24
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let text = "\r[\(bar)] \(status()) \(lastLabel)".prefix(110)
        emit(text + "\u{1B}[K")
    }

    private mutating func logIfDue() {
        let t = now()
        guard t - lastLine >= logInterval else { return }
        lastLine = t
        linesLogged += 1
        let last = lastLabel.isEmpty ? "" : " (last: \(lastLabel))"
        emit("\(name.isEmpty ? "" : "\(name): ")\(status())\(last)\n")
    }

    package func finish() {
        switch style {
        case .off: return
        case .terminal: emit("\r\u{1B}[K")
        case .log:
            guard linesLogged > 0 else { return }
            emit("\(name.isEmpty ? "" : "\(name): ")\(done)/\(total) items, \(Self.clock(now() - start)) elapsed\n")
        }
    }

    /// `12/160 items (7%), 0:42 elapsed, ETA 8:58`; before the first item finishes, no ETA.
    func status() -> String {
        let elapsed = now() - start
        var text = "\(done)/\(total) items (\(done * 100 / total)%), \(Self.clock(elapsed)) elapsed"
        if done > 0, done < total { text += ", ETA \(Self.clock(elapsed * Double(total - done) / Double(done)))" }
        return text
    }

    /// Seconds as `m:ss`, or `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }
}
