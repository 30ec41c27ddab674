/// What the camt and OFX parsers' states share: they read a markup reader's events into
/// diagnostics and a summary, and note whether the file held a statement at all.
protocol MarkupParserState {
    var diagnostics: DiagnosticCollector { get set }
    var summary: ParseSummary { get }
    var sawStatement: Bool { get }
}

extension MarkupParserState {
    /// Runs `read` (which hands the reader's events to the state) with the caller's
    /// diagnostics; a syntax error it throws is reported as `syntax` (text or markup over the
    /// reader's limit as `TEXT_TOO_LONG`) and ends the file, and a file without any statement
    /// is reported as `noStatement`.
    mutating func parse(
        into diagnostics: inout DiagnosticCollector, syntax: (String) -> DiagnosticMessage,
        noStatement: DiagnosticMessage, _ read: (inout Self) throws(XMLSyntaxError) -> Void
    ) -> ParseSummary {
        swap(&self.diagnostics, &diagnostics)
        defer { swap(&self.diagnostics, &diagnostics) }
        do throws(XMLSyntaxError) {
            try read(&self)
        } catch {
            self.diagnostics.report(
                error.isTooLong ? .textTooLong(error.message) : syntax(error.message),
                line: error.line, column: error.column)
            return summary
        }
        if !sawStatement { self.diagnostics.report(noStatement, line: 1, column: 1) }
        return summary
    }
}
