/// The formats a statement file can be in, told apart by a file's name and first bytes.
enum StatementFormat: Hashable, Sendable {
    /// Statement JSON (SPEC 2.2).
    case json
    /// CSV: canonical (SPEC 2.1) or a bank's dialect (SPEC 2.3).
    case csv

    /// The format of a file: JSON when its name ends in `.json` or its first character after
    /// a byte order mark and white space is `{` or `[`, which no CSV header starts with; CSV
    /// otherwise.
    init(path: String, head: [UInt8]) {
        if path.lowercased().hasSuffix(".json") {
            self = .json
            return
        }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        self = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
    }
}

/// A reader of one statement format, the seam every format plugs into: it consumes bytes,
/// reports every problem into the collector with its line and column, hands each valid row
/// to `onRow` as soon as it is read, and runs in time linear in its input.
protocol StatementReader {
    func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary
}

extension StatementJSONParser: StatementReader {}
extension StatementCSVParser: StatementReader {}
