/// The signposts of an xctrace export or a Perfetto trace, whichever the file is.
///
/// Two optionals and a tag rather than an enum with payloads: an enum's payload cannot be
/// mutated in place, so every `next()` would copy the reader and its buffer out and back.
public struct SignpostReader {
    public let format: TraceFormat
    var xml: XctraceSignpostReader?
    var perfetto: PerfettoSignpostReader?

    /// Opens `path`, read as `format` (`.xctrace` or `.perfetto`).
    public init(path: String, format: TraceFormat) throws(TraceImportError) {
        self.format = format
        switch format {
        case .xctrace: xml = try XctraceSignpostReader(path: path)
        case .perfetto: perfetto = try PerfettoSignpostReader(path: path)
        case .csv: throw TraceImportError(path: path, message: "a CSV trace has no signposts")
        }
    }

    public mutating func next() throws(TraceImportError) -> SignpostEvent? {
        format == .xctrace ? try xml!.next() : try perfetto!.next()
    }

    /// Bytes read so far (the whole file once `next()` returned nil).
    public var bytes: UInt64 {
        format == .xctrace ? xml!.scanner.byteOffset : perfetto!.source.offset + UInt64(perfetto!.i)
    }

    public func close() {
        if let xml { xml.scanner.source.close() }
        if let perfetto { perfetto.source.close() }
    }
}
