/// What the camt and OFX parsers' states share: they read a markup reader's events into
/// diagnostics and a summary, and note whether the file held a statement at all.
protocol MarkupParserState: StatementParseState {
    var sawStatement: Bool { get }
    /// The message of a syntax error the reader throws.
    static func syntax(_ reason: String) -> DiagnosticMessage
    /// The message of a file without any statement.
    static var noStatement: DiagnosticMessage { get }
}

extension MarkupParserState {
    /// Runs `read` (which hands the reader's events to the state); a syntax error it throws is reported as `syntax` (text or markup over the
    /// reader's limit as `TEXT_TOO_LONG`) and ends the file, and a file without any statement
    /// is reported as `Self.noStatement`.
    mutating func readEvents(_ read: (inout Self) throws(XMLSyntaxError) -> Void) {
        do throws(XMLSyntaxError) {
            try read(&self)
        } catch {
            diagnostics.report(
                error.isTooLong ? .textTooLong(error.message) : Self.syntax(error.message),
                line: error.line, column: error.column)
            return
        }
        if !sawStatement { diagnostics.report(Self.noStatement, line: 1, column: 1) }
    }
}
