import Foundation

/// A one-line progress bar on stderr, shown only when stderr is a terminal and not `--quiet`.
package struct Progress {
    let total: Int
    let enabled: Bool
    var done = 0

    package init(total: Int, quiet: Bool) {
        self.total = max(total, 1)
        self.enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    package mutating func advance(_ label: String) {
        done += 1
        guard enabled else { return }
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let text = "\r[\(bar)] \(done)/\(total) \(label)".prefix(100)
        FileHandle.standardError.write(Data((text + "\u{1B}[K").utf8))
    }

    package func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
