/// A streaming XML tokenizer for `xctrace export` output: tags with the attributes xctrace uses
/// (`id`, `ref`, `fmt`, `name`), and the text between them, over a `ByteSource`.
///
/// Not a general XML parser on purpose: xctrace writes no CDATA, namespaces or DTD, and the
/// table has millions of rows, so the scanner works on bytes and hands out ranges into its
/// buffer, valid until the next call; only the values a reader keeps become `String`s.
struct XMLScanner {
    enum Kind { case open, close, empty, text, end }

    var source: ByteSource
    var i = 0
    /// The current token.
    var kind = Kind.end
    var name = 0..<0
    var text = 0..<0
    var id: Int?
    var ref: Int?
    var fmt: Range<Int>?
    var nameAttribute: Range<Int>?

    init(path: String) throws(TraceImportError) {
        source = try ByteSource(path: path)
    }

    var path: String { source.path }
    var byteOffset: UInt64 { source.offset + UInt64(i) }

    func truncated(_ what: String) -> TraceImportError {
        TraceImportError(path: path, message: "truncated XML: the file ends \(what)")
    }

    /// Moves to the next token; `.end` at the end of the file.
    mutating func next() throws(TraceImportError) {
        while true {
            if i >= source.buffer.count {
                guard try source.refill(keeping: i) else {
                    kind = .end
                    return
                }
                i = 0
            }
            if source.buffer[i] == UInt8(ascii: "<") {
                if try tag() { return }
            } else {
                try scanText()
                return
            }
        }
    }

    /// The index of the `>` that closes the tag at `i` (quotes respected), refilling as needed.
    private mutating func tagEnd() throws(TraceImportError) -> Int {
        while true {
            let found = source.buffer.withUnsafeBufferPointer { b -> Int? in
                var quote: UInt8 = 0
                var k = i + 1
                while k < b.count {
                    let c = b[k]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == 0x22 || c == 0x27 {
                        quote = c
                    } else if c == 0x3E {
                        return k
                    }
                    k += 1
                }
                return nil
            }
            if let found { return found }
            guard try source.refill(keeping: i) else { throw truncated("inside a tag") }
            i = 0
        }
    }

    /// Reads the tag at `i`; false for a declaration or comment, which are skipped.
    private mutating func tag() throws(TraceImportError) -> Bool {
        let end = try tagEnd()
        let b = source.buffer
        var k = i + 1
        guard k < end else { throw TraceImportError(path: path, message: "malformed XML: an empty tag '<>'") }
        if b[k] == UInt8(ascii: "?") || b[k] == UInt8(ascii: "!") {
            if b[k] == UInt8(ascii: "!"), end - i >= 3, b[k + 1] == UInt8(ascii: "-") {
                try skipComment()
            } else {
                i = end + 1
            }
            return false
        }
        id = nil
        ref = nil
        fmt = nil
        nameAttribute = nil
        if b[k] == UInt8(ascii: "/") {
            kind = .close
            k += 1
            let start = k
            while k < end, !Self.isSpace(b[k]) { k += 1 }
            name = start..<k
            i = end + 1
            return true
        }
        let start = k
        while k < end, !Self.isSpace(b[k]), b[k] != UInt8(ascii: "/") { k += 1 }
        name = start..<k
        kind = b[end - 1] == UInt8(ascii: "/") ? .empty : .open
        try attributes(from: k, to: kind == .empty ? end - 1 : end)
        i = end + 1
        return true
    }

    private mutating func attributes(from start: Int, to end: Int) throws(TraceImportError) {
        let b = source.buffer
        var k = start
        while true {
            while k < end, Self.isSpace(b[k]) { k += 1 }
            if k >= end { return }
            let nameStart = k
            while k < end, b[k] != UInt8(ascii: "="), !Self.isSpace(b[k]) { k += 1 }
            let attribute = nameStart..<k
            while k < end, Self.isSpace(b[k]) { k += 1 }
            guard k < end, b[k] == UInt8(ascii: "=") else { throw malformedAttribute() }
            k += 1
            while k < end, Self.isSpace(b[k]) { k += 1 }
            guard k < end, b[k] == 0x22 || b[k] == 0x27 else { throw malformedAttribute() }
            let quote = b[k]
            k += 1
            let valueStart = k
            while k < end, b[k] != quote { k += 1 }
            guard k < end else { throw malformedAttribute() }
            let value = valueStart..<k
            k += 1
            switch attribute.count {
            case 2 where b[attribute.lowerBound] == UInt8(ascii: "i") && b[attribute.lowerBound + 1] == UInt8(ascii: "d"):
                id = try number(value, attribute: "id")
            case 3 where Self.equal(b, attribute, "ref"): ref = try number(value, attribute: "ref")
            case 3 where Self.equal(b, attribute, "fmt"): fmt = value
            case 4 where Self.equal(b, attribute, "name"): nameAttribute = value
            default: break
            }
        }
    }

    private func malformedAttribute() -> TraceImportError {
        TraceImportError(path: path, message: "malformed XML: a bad attribute in <\(string(name))> at byte \(byteOffset)")
    }

    private func number(_ range: Range<Int>, attribute: String) throws(TraceImportError) -> Int {
        guard let n = Self.whole(source.buffer, range) else {
            throw TraceImportError(path: path, message: "\(attribute)=\"\(string(range))\" in <\(string(name))> is not a whole number")
        }
        return n
    }

    private mutating func skipComment() throws(TraceImportError) {
        while true {
            let b = source.buffer
            var k = i + 4
            while k + 2 < b.count {
                if b[k] == UInt8(ascii: "-"), b[k + 1] == UInt8(ascii: "-"), b[k + 2] == UInt8(ascii: ">") {
                    i = k + 3
                    return
                }
                k += 1
            }
            guard try source.refill(keeping: i) else { throw truncated("inside a comment") }
            i = 0
        }
    }

    private mutating func scanText() throws(TraceImportError) {
        while true {
            let found = source.buffer.withUnsafeBufferPointer { b -> Int? in
                var k = i
                while k < b.count {
                    if b[k] == 0x3C { return k }
                    k += 1
                }
                return nil
            }
            if let found {
                kind = .text
                text = i..<found
                i = found
                return
            }
            if try !source.refill(keeping: i) {
                kind = .text
                text = 0..<source.buffer.count
                i = source.buffer.count
                return
            }
            i = 0
        }
    }

    // MARK: Values

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    static func equal(_ b: [UInt8], _ r: Range<Int>, _ s: StaticString) -> Bool {
        guard r.count == s.utf8CodeUnitCount else { return false }
        let p = s.utf8Start
        for k in 0..<r.count where b[r.lowerBound + k] != p[k] { return false }
        return true
    }

    func isName(_ s: StaticString) -> Bool { Self.equal(source.buffer, name, s) }

    var isBlankText: Bool {
        let b = source.buffer
        for k in text where !Self.isSpace(b[k]) { return false }
        return true
    }

    static func whole(_ b: [UInt8], _ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 18 else { return nil }
        var n = 0
        for k in r {
            let d = b[k] &- 0x30
            guard d < 10 else { return nil }
            n = n * 10 + Int(d)
        }
        return n
    }

    /// The text of a range with XML's entities decoded.
    func string(_ r: Range<Int>) -> String {
        let b = source.buffer
        guard b[r].contains(UInt8(ascii: "&")) else { return String(decoding: b[r], as: UTF8.self) }
        return Self.decodeEntities(String(decoding: b[r], as: UTF8.self))
    }

    static func decodeEntities(_ s: String) -> String {
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let hex = entity.hasPrefix("#x")
                let digits = entity.dropFirst(hex ? 2 : 1)
                if entity.hasPrefix("#"), let v = UInt32(digits, radix: hex ? 16 : 10), let u = Unicode.Scalar(v) {
                    out.unicodeScalars.append(u)
                } else {
                    out += "&" + entity + ";"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
