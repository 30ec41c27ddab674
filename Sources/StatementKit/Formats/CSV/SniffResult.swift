/// What sniffing a file without a profile found.
package enum SniffResult: Sendable {
    /// The dialect, and what had to be assumed where the file left a choice open.
    case dialect(Dialect, assumptions: [Diagnostic.Finding])
    /// A bank export whose header was recognised, but that cannot be read without a profile.
    case unknown(Diagnostic.Finding)
    /// A bank export read completely but for its account, which neither a column nor the
    /// preamble gives: the dialect lacks only `account.iban`.
    case lacksAccount(Dialect, assumptions: [Diagnostic.Finding], Diagnostic.Finding)
    /// No line looks like the header of a statement.
    case noHeader
}

extension SniffResult {
    /// Reports what sniffing found: each assumption as `DIALECT_ASSUMED`, a refusal as
    /// `DIALECT_UNKNOWN`, and, when `refusingNoHeader`, a file without a header too.
    ///
    /// - Returns: the dialect to read the file in, if sniffing arrived at one.
    package func report(into diagnostics: inout DiagnosticCollector, refusingNoHeader: Bool = false)
        -> Dialect?
    {
        switch self {
        case .dialect(let dialect, let assumptions):
            for finding in assumptions { diagnostics.report(finding) }
            return dialect
        case .unknown(let finding), .lacksAccount(_, _, let finding):
            diagnostics.report(finding)
        case .noHeader where refusingNoHeader:
            diagnostics.report(
                .noHeaderFound(searched: DialectSniffer.headerSearchLimit), line: 0, column: 0)
        case .noHeader:
            break
        }
        return nil
    }
}
