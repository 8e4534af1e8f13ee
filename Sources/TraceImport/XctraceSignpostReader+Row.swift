extension XctraceSignpostReader {
    /// One cell as read: its value (resolved when it was a `ref`), or nothing for `<sentinel/>`.
    struct Cell {
        var value: Value
        var time: Int64?
        var empty = false
    }

    /// Reads the cells of the row just opened, up to its `</row>`.
    mutating func readRow() throws(TraceImportError) -> SignpostEvent {
        guard let columns else { throw fail("row \(rows + 1) comes before any <schema>") }
        rows += 1
        var event = SignpostEvent(phase: .instant, name: "", process: "", mainThread: false, time: 0, rows: nil, key: "")
        var threadProcess: String?
        var sawTime = false
        var cells = 0
        while true {
            try scanner.next()
            switch scanner.kind {
            case .end: throw scanner.truncated("inside row \(rows)")
            case .text:
                guard scanner.isBlankText else { throw fail("row \(rows): text outside any cell") }
            case .close:
                guard scanner.isName("row") else { throw fail("row \(rows): unexpected </\(scanner.string(scanner.name))>") }
                guard cells == columns.count else {
                    throw fail("row \(rows) has \(cells) cells, its schema \(columns.count) columns")
                }
                guard sawTime else { throw fail("row \(rows) has no time") }
                event.process = event.process.isEmpty ? (threadProcess ?? "") : event.process
                return event
            case .open, .empty:
                guard cells < columns.count else {
                    throw fail("row \(rows) has more cells than its schema's \(columns.count) columns")
                }
                let role = columns[cells]
                cells += 1
                let cell = try readCell(role: role)
                if cell.empty { continue }
                try apply(cell, role: role, to: &event, threadProcess: &threadProcess, sawTime: &sawTime)
            }
        }
    }

    private func apply(
        _ cell: Cell,
        role: Role,
        to event: inout SignpostEvent,
        threadProcess: inout String?,
        sawTime: inout Bool
    ) throws(TraceImportError) {
        let v = cell.value
        switch role {
        case .time:
            guard let t = cell.time else { throw fail("row \(rows): time '\(v.text)' is not a whole number of nanoseconds") }
            event.time = t
            sawTime = true
        case .thread:
            event.mainThread = v.isMainThread
            threadProcess = v.process
        case .process: event.process = v.processName
        case .eventType:
            guard let phase = v.phase else { throw fail("row \(rows): event type '\(v.label)' is none of Event, Begin, End") }
            event.phase = phase
        case .identifier: event.key = v.label
        case .name: event.name = v.label
        case .message:
            switch v.rows {
            case .absent: break
            case .rows(let n): event.rows = n
            case .invalid(let shown): throw fail("row \(rows): message '\(shown)': rows= must be a whole number ≥ 1")
            }
        case .other: break
        }
    }

    /// "Signal (4242)" → "Signal".
    static func processName(_ fmt: String) -> String {
        guard fmt.hasSuffix(")"), let open = fmt.lastIndex(of: "("),
            fmt[fmt.index(after: open)..<fmt.index(before: fmt.endIndex)].allSatisfy(\.isNumber)
        else { return fmt }
        var name = fmt[..<open]
        while name.last == " " { name.removeLast() }
        return String(name)
    }

    /// Reads the element just opened (or empty) as one cell, with any elements nested in it.
    private mutating func readCell(role: Role) throws(TraceImportError) -> Cell {
        if scanner.kind == .empty, scanner.isName("sentinel") { return Cell(value: blank, empty: true) }
        if let ref = scanner.ref {
            guard scanner.kind == .empty else { throw fail("row \(rows): a ref=\"\(ref)\" element with content") }
            if role == .time {
                let slot = times[ref % Self.timeWindow]
                if slot.id == ref { return Cell(value: blank, time: slot.time) }
                guard let value = values[ref] else {
                    throw fail("row \(rows): ref=\"\(ref)\" names no earlier id (or a time more than \(Self.timeWindow) ids back)")
                }
                return Cell(value: value, time: Self.time(value.text))
            }
            guard let value = values[ref] else { throw fail("row \(rows): ref=\"\(ref)\" names no earlier id") }
            return Cell(value: value)
        }
        let id = scanner.id
        // A timestamp is new on every row and kept by id in `times`, not as a value: its text
        // goes to one scratch value, so that a row allocates nothing for it.
        let value = role == .time ? scratch : Value()
        if role == .time { value.text = "" }
        let keep = role != .other
        // A timestamp's fmt ("00:02.500.000") is never read: no `String` for it on every row.
        if keep, role != .time, let fmt = scanner.fmt { value.fmt = scanner.string(fmt) }
        var number: Int?
        if scanner.kind == .open { try readContent(into: value, keep: keep, number: &number, wantsNumber: role == .time) }
        if role == .time {
            guard let t = number.map(Int64.init) ?? Self.time(value.text) else { return Cell(value: value) }
            if let id { times[id % Self.timeWindow] = (id, t) }
            return Cell(value: value, time: t)
        }
        if let id { values[id] = keep ? value : Value() }
        return Cell(value: value)
    }

    /// The text and nested elements of the element just opened, up to its close; nested
    /// elements are remembered by id, and a nested `<process>` names the cell's process.
    private mutating func readContent(
        into value: Value,
        keep: Bool,
        number: inout Int?,
        wantsNumber: Bool = false
    ) throws(TraceImportError) {
        var depth = 0
        var nested: [(id: Int?, value: Value, isProcess: Bool)] = []
        while true {
            try scanner.next()
            switch scanner.kind {
            case .end: throw scanner.truncated("inside row \(rows)")
            case .text:
                if depth == 0, wantsNumber, let n = scanner.textNumber {
                    // A timestamp: read from the bytes, no `String` per row.
                    number = n
                } else if keep, !scanner.isBlankText {
                    if depth == 0 {
                        value.text = scanner.string(scanner.text)
                    } else {
                        nested[nested.count - 1].value.text = scanner.string(scanner.text)
                    }
                }
            case .empty, .open:
                if let ref = scanner.ref {
                    guard let v = values[ref] else { throw fail("row \(rows): ref=\"\(ref)\" names no earlier id") }
                    if depth == 0, scanner.isName("process") { value.process = v.processName }
                    if scanner.kind == .open {
                        nested.append((nil, v, false))
                        depth += 1
                    }
                    continue
                }
                let v = Value()
                if keep, let fmt = scanner.fmt { v.fmt = scanner.string(fmt) }
                let entry = (id: scanner.id, value: v, isProcess: depth == 0 && scanner.isName("process"))
                if scanner.kind == .empty {
                    if let id = entry.id { values[id] = v }
                    if entry.isProcess { value.process = v.processName }
                } else {
                    nested.append(entry)
                    depth += 1
                }
            case .close:
                if depth == 0 { return }
                let done = nested.removeLast()
                depth -= 1
                if let id = done.id { values[id] = done.value }
                if done.isProcess { value.process = done.value.processName }
            }
        }
    }

    static func time(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}

/// The `rows=N` a signpost message may carry.
enum RowsField: Equatable {
    case absent
    case rows(Int64)
    case invalid(String)

    /// Finds `rows=` at the start of the message or after a blank or comma.
    static func parse(_ message: String) -> RowsField {
        let bytes = Array(message.utf8)
        let key = Array("rows=".utf8)
        var k = 0
        while k + key.count <= bytes.count {
            if k == 0 || bytes[k - 1] == 0x20 || bytes[k - 1] == 0x2C, Array(bytes[k..<k + key.count]) == key {
                var end = k + key.count
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                let digits = bytes[(k + key.count)..<end]
                let terminated = end == bytes.count || bytes[end] == 0x20 || bytes[end] == 0x2C
                guard terminated, !digits.isEmpty, digits.count <= 9, let n = Int64(String(decoding: digits, as: UTF8.self)), n >= 1 else {
                    return .invalid(String(message.prefix(60)))
                }
                return .rows(n)
            }
            k += 1
        }
        return .absent
    }
}
