import Foundation

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
                let more = try source.refill(keeping: i)
                i = 0
                guard more else {
                    kind = .end
                    return
                }
            }
            if source.buffer[i] == UInt8(ascii: "<") {
                if try tag() { return }
            } else {
                try scanText()
                return
            }
        }
    }

    /// A tag as `parseTag` read it, before it becomes the current token.
    struct Tag {
        var kind = Kind.open
        var name = 0..<0
        var id: Int?
        var ref: Int?
        var fmt: Range<Int>?
        var nameAttribute: Range<Int>?
        var end = 0
        /// A declaration or comment: skipped.
        var skip = false
    }

    enum TagFault: Error {
        case attribute
        case number(Range<Int>)
    }

    /// Reads the tag at `i`, refilling until it is whole; false for a declaration or comment,
    /// which are skipped. One pass over the tag's bytes (its name, then each attribute up to its
    /// closing quote, then the `>`): scanning for the `>` first and the attributes after was a
    /// tenth of the reader's time.
    private mutating func tag() throws(TraceImportError) -> Bool {
        while true {
            let at = i
            let parsed: Tag?
            do { parsed = try source.buffer.withUnsafeBufferPointer { b throws(TagFault) in try Self.parseTag(b, at) } } catch {
                switch error {
                case .attribute:
                    throw TraceImportError(path: path, message: "malformed XML: a bad attribute in a tag at byte \(byteOffset)")
                case .number(let r):
                    throw TraceImportError(
                        path: path,
                        message: "'\(string(r))' in a tag at byte \(byteOffset) is not a whole number (an id or ref)"
                    )
                }
            }
            if let tag = parsed {
                if tag.skip {
                    if source.buffer[i + 1] == UInt8(ascii: "!"), tag.end - i >= 3, source.buffer[i + 2] == UInt8(ascii: "-") {
                        try skipComment()
                    } else {
                        i = tag.end + 1
                    }
                    return false
                }
                (kind, name, id, ref, fmt, nameAttribute) = (tag.kind, tag.name, tag.id, tag.ref, tag.fmt, tag.nameAttribute)
                i = tag.end + 1
                return true
            }
            let more = try source.refill(keeping: i)
            i = 0
            guard more else { throw truncated("inside a tag") }
        }
    }

    /// The tag starting at `b[at]` (a `<`), or nil when the buffer ends inside it.
    static func parseTag(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) throws(TagFault) -> Tag? {
        var t = Tag()
        let n = b.count
        var k = at + 1
        guard k < n else { return nil }
        if b[k] == UInt8(ascii: "?") || b[k] == UInt8(ascii: "!") {
            while k < n, b[k] != 0x3E { k += 1 }
            guard k < n else { return nil }
            t.skip = true
            t.end = k
            return t
        }
        if b[k] == UInt8(ascii: "/") {
            t.kind = .close
            k += 1
        }
        let nameStart = k
        while k < n, !endsName(b[k]) { k += 1 }
        t.name = nameStart..<k
        while true {
            while k < n, isSpace(b[k]) { k += 1 }
            guard k < n else { return nil }
            if b[k] == 0x3E {
                t.end = k
                return t
            }
            if b[k] == UInt8(ascii: "/") {
                guard k + 1 < n else { return nil }
                guard b[k + 1] == 0x3E else { throw .attribute }
                t.kind = .empty
                t.end = k + 1
                return t
            }
            let attributeStart = k
            while k < n, !endsAttribute(b[k]) { k += 1 }
            let attribute = attributeStart..<k
            while k < n, isSpace(b[k]) { k += 1 }
            guard k < n else { return nil }
            guard b[k] == UInt8(ascii: "=") else { throw .attribute }
            k += 1
            while k < n, isSpace(b[k]) { k += 1 }
            guard k < n else { return nil }
            let quote = b[k]
            guard quote == 0x22 || quote == 0x27 else { throw .attribute }
            k += 1
            let valueStart = k
            // memchr, not a loop over the bytes: the compiler kept that loop's index in memory,
            // a store and a load per byte, and values (a thread's or a process's display name)
            // are the longest runs in a tag; that loop was a sixth of the tag parser's time.
            guard k < n, let quoteAt = memchr(b.baseAddress! + k, Int32(quote), n - k) else { return nil }
            k = b.baseAddress!.distance(to: quoteAt.assumingMemoryBound(to: UInt8.self))
            let value = valueStart..<k
            k += 1
            switch attribute.count {
            case 2 where b[attribute.lowerBound] == UInt8(ascii: "i") && b[attribute.lowerBound + 1] == UInt8(ascii: "d"):
                guard let v = whole(b, value) else { throw .number(value) }
                t.id = v
            case 3 where equal(b, attribute, "ref"):
                guard let v = whole(b, value) else { throw .number(value) }
                t.ref = v
            case 3 where equal(b, attribute, "fmt"): t.fmt = value
            case 4 where equal(b, attribute, "name"): t.nameAttribute = value
            default: break
            }
        }
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
            let more = try source.refill(keeping: i)
            i = 0
            guard more else { throw truncated("inside a comment") }
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
            let more = try source.refill(keeping: i)
            i = 0
            if !more {
                kind = .text
                text = 0..<source.buffer.count
                i = source.buffer.count
                return
            }
        }
    }

    // MARK: Values

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    /// The bytes below 64 that end a tag's name (blanks, `/`, `>`) or an attribute's name
    /// (blanks, `=`, `>`), as bit masks: one shift and test per byte instead of five
    /// comparisons, in the loop the tokenizer spends most of its time in. Literals in the
    /// functions, so that the optimiser folds them (a stored global is read through a lazy
    /// initialiser).
    @inline(__always) static func endsName(_ c: UInt8) -> Bool {
        let mask: UInt64 = 1 << 0x20 | 1 << 0x0A | 1 << 0x09 | 1 << 0x0D | 1 << 0x2F | 1 << 0x3E
        return c < 64 && mask >> c & 1 != 0
    }

    @inline(__always) static func endsAttribute(_ c: UInt8) -> Bool {
        let mask: UInt64 = 1 << 0x20 | 1 << 0x0A | 1 << 0x09 | 1 << 0x0D | 1 << 0x3D | 1 << 0x3E
        return c < 64 && mask >> c & 1 != 0
    }

    @inline(__always) static func equal(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ s: StaticString) -> Bool {
        guard r.count == s.utf8CodeUnitCount else { return false }
        let p = s.utf8Start
        for k in 0..<r.count where b[r.lowerBound + k] != p[k] { return false }
        return true
    }

    @inline(__always) func isName(_ s: StaticString) -> Bool {
        // The length first: most names compared are not the one asked for.
        guard name.count == s.utf8CodeUnitCount else { return false }
        return source.buffer.withUnsafeBufferPointer { Self.equal($0, name, s) }
    }

    var isBlankText: Bool {
        let b = source.buffer
        for k in text where !Self.isSpace(b[k]) { return false }
        return true
    }

    static func whole(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        guard !r.isEmpty, r.count <= 18 else { return nil }
        var n = 0
        for k in r {
            let d = b[k] &- 0x30
            guard d < 10 else { return nil }
            n = n * 10 + Int(d)
        }
        return n
    }

    /// The current text token as a whole number, read from the bytes (no `String`); nil if it is not one.
    var textNumber: Int? { source.buffer.withUnsafeBufferPointer { Self.whole($0, text) } }

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
