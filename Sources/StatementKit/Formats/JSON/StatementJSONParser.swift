/// Reads statement JSON (<doc:Formats#Statement-JSON>) into validated transactions, streaming.
///
/// The document is one statement object or an array of them. Amounts may be strings or
/// numbers and are read exactly from their text. Every problem becomes a diagnostic at the
/// line and column of the offending key or value; a statement whose account is invalid
/// produces no rows.
///
/// The file is read in one pass through a `JSONReader`: each transaction is built, checked and
/// handed on before the next is read, so memory does not grow with the file, and time is
/// linear in it whatever its line structure (a minified file is one long line). Only when a
/// statement lists its transactions before its account are they held until the account comes.
package struct StatementJSONParser: Sendable {
    /// Creates a parser.
    package init() {}

    /// Reads a whole JSON document held in memory; see `parse(_:diagnostics:onRow:)`.
    package func parse(
        _ bytes: [UInt8], diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        parse(MemoryByteSource(bytes), diagnostics: &diagnostics, onRow: onRow)
    }

    /// Reads a whole JSON document, reporting problems into `diagnostics` and each valid row
    /// to `onRow` as soon as it is read.
    ///
    /// - Complexity: O(n) in the size of the document.
    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = JSONReader(source: source)
        var decoder = Decoder(diagnostics: DiagnosticCollector(file: ""))
        swap(&decoder.diagnostics, &diagnostics)
        defer { swap(&decoder.diagnostics, &diagnostics) }
        do throws(JSONSyntaxError) {
            guard let first = try reader.peekValue() else {
                decoder.diagnostics.report(
                    .fileEmpty(requiring: "a statement object"), line: 1, column: 1)
                return decoder.summary
            }
            if first == UInt8(ascii: "[") {
                try reader.beginArray()
                var isFirst = true
                while try reader.nextElement(isFirst: &isFirst) {
                    try decoder.statement(&reader, onRow: onRow)
                }
            } else {
                try decoder.statement(&reader, onRow: onRow)
            }
            try reader.expectEnd()
        } catch {
            decoder.diagnostics.report(
                .jsonSyntax(error.message, isTooDeep: error.isTooDeep), line: error.position.line,
                column: error.position.column)
            return decoder.summary
        }
        if decoder.summary.rowCount == 0 {
            decoder.diagnostics.report(.noTransactions, line: 1, column: 1)
        }
        return decoder.summary
    }
}

extension StatementJSONParser: StatementReader {
    static let formatName = "statement JSON"
    static let fileSuffixes = [".json"]

    /// JSON rows are always built: their checks need them.
    init(buildsRows: Bool) { self.init() }

    /// `{` or `[` first, which no CSV header starts with (`{1:`, the SWIFT envelope, is
    /// MT940's, tried before).
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        head.firstNonBlank == UInt8(ascii: "{") || head.firstNonBlank == UInt8(ascii: "[")
    }
}
