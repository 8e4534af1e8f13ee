/// Reads the `os-signpost` table of an `xctrace export` as `SignpostEvent`s, one row at a time.
///
/// The layout, as Instruments writes it: a `<schema>` of `<col>`s, each with a `<mnemonic>`;
/// each `<row>`'s children are its cells, matched to the columns by position; a value is written
/// in full once with `id="N"` and afterwards as an empty element with `ref="N"`; an empty cell is
/// `<sentinel/>`; one table may be split over several `<node>`s, of which only the first carries
/// the schema. Values read: the time, the thread (its `fmt` says "Main Thread …") and the process
/// inside it, the process column, the event type, the identifier, the name and the message.
struct XctraceSignpostReader {
    enum Role { case time, thread, process, eventType, identifier, name, message, other }

    /// A value as a later `ref` sees it. A class, so that a `ref` (most cells of a real export)
    /// costs one retain rather than one per string, and what a row takes from the value (the
    /// process name, the phase, `rows=`) is derived once per id, not again at every `ref`:
    /// re-deriving them was a fifth of the reader's time.
    final class Value {
        var text = ""
        var fmt = ""
        var process: String?

        init() {}

        /// The displayed form when there is one (a process's "Signal (4242)"), else the text.
        var shown: String { fmt.isEmpty ? text : fmt }
        /// The text when there is one (an event type's "Event"), else the displayed form.
        lazy var label: String = text.isEmpty ? fmt : text
        lazy var processName: String = XctraceSignpostReader.processName(shown)
        lazy var isMainThread: Bool = fmt.hasPrefix("Main Thread")
        lazy var phase: SignpostEvent.Phase? = Self.phase(label)
        lazy var rows: RowsField = RowsField.parse(shown)

        static func phase(_ type: String) -> SignpostEvent.Phase? {
            if type.hasPrefix("Begin") { return .begin }
            if type.hasPrefix("End") { return .end }
            if type.hasPrefix("Event") { return .instant }
            return nil
        }
    }

    var scanner: XMLScanner
    var columns: [Role]?
    var values = IDTable<Value>()
    /// What a `<sentinel/>` or a timestamp found by `ref` stands for: never read.
    let blank = Value()
    /// A timestamp cell's text, overwritten on every row.
    let scratch = Value()
    /// Timestamps are unique per row, so keeping every one for a possible `ref` would grow with
    /// the file: the last `timeWindow` ones are kept (by id), which covers the neighbouring rows
    /// that share a timestamp.
    var times: [(id: Int, time: Int64)] = Array(repeating: (-1, 0), count: timeWindow)
    static let timeWindow = 4096
    var rows = 0
    var sawRoot = false
    var closedRoot = false

    init(path: String) throws(TraceImportError) {
        scanner = try XMLScanner(path: path)
    }

    var path: String { scanner.path }

    func fail(_ message: String) -> TraceImportError { TraceImportError(path: path, message: message) }

    /// The next row's signpost; nil at the end of the table.
    mutating func next() throws(TraceImportError) -> SignpostEvent? {
        while true {
            try scanner.next()
            switch scanner.kind {
            case .end:
                guard sawRoot else { throw fail("is not an xctrace export: no <trace-query-result>") }
                guard closedRoot else { throw scanner.truncated("before </trace-query-result> (after row \(rows))") }
                guard columns != nil else { throw fail("has no <schema>: export the os-signpost table (see --help)") }
                return nil
            case .text:
                continue
            case .close:
                if scanner.isName("trace-query-result") { closedRoot = true }
            case .open, .empty:
                if scanner.isName("trace-query-result") {
                    sawRoot = true
                } else if scanner.isName("schema") {
                    try readSchema()
                } else if scanner.isName("row") {
                    guard scanner.kind == .open else { throw fail("row \(rows + 1) is empty (<row/>)") }
                    return try readRow()
                }
            }
        }
    }

    private mutating func readSchema() throws(TraceImportError) {
        let name = scanner.nameAttribute.map { scanner.string($0) } ?? ""
        guard name == "os-signpost" else {
            throw fail(
                "the table is '\(name)', not 'os-signpost': export it with --xpath '/trace-toc/run[@number=\"1\"]/data/table[@schema=\"os-signpost\"]'"
            )
        }
        var roles: [Role] = []
        var inMnemonic = false
        while true {
            try scanner.next()
            switch scanner.kind {
            case .end: throw scanner.truncated("inside the <schema>")
            case .open: inMnemonic = scanner.isName("mnemonic")
            case .empty: continue
            case .text: if inMnemonic { roles.append(Self.role(scanner.string(scanner.text))) }
            case .close:
                inMnemonic = false
                if scanner.isName("schema") {
                    if let columns, columns != roles { throw fail("a second <schema> differs from the first") }
                    guard roles.contains(.time), roles.contains(.name) else {
                        throw fail("the os-signpost schema has no 'time' or no 'name' column")
                    }
                    guard roles.contains(.process) || roles.contains(.thread) else {
                        throw fail("the os-signpost schema has neither a 'process' nor a 'thread' column")
                    }
                    columns = roles
                    return
                }
            }
        }
    }

    static func role(_ mnemonic: String) -> Role {
        switch mnemonic {
        case "time": .time
        case "thread": .thread
        case "process": .process
        case "event-type": .eventType
        case "identifier": .identifier
        case "name": .name
        case "message": .message
        default: .other
        }
    }
}
