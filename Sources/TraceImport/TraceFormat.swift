import Foundation

/// The three trace formats `--trace` reads, told apart by their first bytes rather than by the
/// file's extension, so that a renamed or extension-less export still replays.
public enum TraceFormat: String, Sendable, CaseIterable {
    /// `time_ms,rows` text, plain or gzip-compressed (Simulation's `TraceReader`).
    case csv
    /// `xctrace export --xpath …os-signpost…` XML.
    case xctrace
    /// A Perfetto trace: a protobuf `Trace` of `TracePacket`s.
    case perfetto

    /// Reads the first bytes: `<` (after blanks or a byte-order mark) is XML; a first byte of
    /// 0x0A (field 1 of `Trace`, length-delimited: a `TracePacket`) is Perfetto when the head is not text; anything else,
    /// gzip included, is the CSV reader's to accept or refuse.
    public static func sniff(path: String) throws(TraceImportError) -> TraceFormat {
        var source = try ByteSource(path: path)
        defer { source.close() }
        _ = try source.refill(keeping: 0)
        return sniff(source.buffer.prefix(64))
    }

    static func sniff(_ head: ArraySlice<UInt8>) -> TraceFormat {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let first = bytes.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }), first == UInt8(ascii: "<") {
            return .xctrace
        }
        // A CSV may begin with a blank line: it is Perfetto only if it is not text.
        if head.first == 0x0A, head.contains(where: { $0 < 0x09 || (0x0D < $0 && $0 < 0x20) || $0 > 0x7E }) { return .perfetto }
        return .csv
    }
}
