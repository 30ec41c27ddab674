@testable import StatementKit

/// What a parser made of one file in a test.
struct ParseResult {
    var rows: [ParsedRow] = []
    var diagnostics: [Diagnostic] = []
    var summary = ParseSummary()
    var errorCount = 0

    /// `LINE:COLUMN CODE` of each diagnostic, for compact expectations.
    var places: [String] { diagnostics.map { "\($0.line):\($0.column) \($0.code.rawValue)" } }
    var codes: [DiagnosticCode] { diagnostics.map(\.code) }
}

/// Parses CSV bytes; with a dialect, decoded and cut as `StatementFileReader` does.
func parseCSV(
    _ bytes: [UInt8], strict: Bool = false, maximumRecordLength: Int? = nil,
    buildsRows: Bool = true,
    dialect: Dialect? = nil
)
    -> ParseResult
{
    var result = ParseResult()
    var collector = DiagnosticCollector(file: "t.csv", isStrict: strict)
    let parser = StatementCSVParser(
        maximumRecordLength: maximumRecordLength
            ?? CSVReader<MemoryByteSource>.defaultMaximumRecordLength,
        dialect: dialect ?? Dialect(), buildsRows: buildsRows)
    let (body, footer) = dialect?.text(of: bytes) ?? (bytes, [])
    result.summary = parser.parse(MemoryByteSource(body), footer: footer, diagnostics: &collector) {
        result.rows.append($0)
    }
    result.diagnostics = collector.diagnostics
    result.errorCount = collector.errorCount
    return result
}

func parseCSV(_ text: String, strict: Bool = false) -> ParseResult {
    parseCSV(Array(text.utf8), strict: strict)
}

func parseJSON(_ text: String) -> ParseResult {
    parseJSON(Array(text.utf8))
}

func parseJSON(_ bytes: [UInt8]) -> ParseResult {
    var result = ParseResult()
    var collector = DiagnosticCollector(file: "t.json")
    result.summary = StatementJSONParser().parse(bytes, diagnostics: &collector) {
        result.rows.append($0)
    }
    result.diagnostics = collector.diagnostics
    result.errorCount = collector.errorCount
    return result
}

/// A byte source that hands out at most `step` bytes per read, to split records across reads.
struct TrickleByteSource: ByteSource {
    var inner: MemoryByteSource
    let step: Int

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(step)))
    }
}

/// Parses the bytes of a bank's own format (MT940, camt, OFX) with its reader, chosen by
/// content as `StatementFileReader` chooses it.
func parseBankFormat(_ bytes: [UInt8], buildsRows: Bool = true) -> ParseResult {
    var result = ParseResult()
    var collector = DiagnosticCollector(file: "t.sta")
    let source = MemoryByteSource(bytes)
    let onRow = { (row: ParsedRow) in result.rows.append(row) }
    if let reader = StatementFormat(
        path: "t", head: Array(bytes.prefix(StatementFormat.headLength))
    ).reader, reader != StatementJSONParser.self {
        result.summary = reader.init(buildsRows: buildsRows).parse(
            source, diagnostics: &collector, onRow: onRow)
    }
    result.diagnostics = collector.diagnostics
    result.errorCount = collector.errorCount
    return result
}
