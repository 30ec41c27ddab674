/// What sniffing a file without a profile found.
package enum SniffResult: Sendable {
    /// The dialect, and what had to be assumed where the file left a choice open.
    case dialect(Dialect, assumptions: [Diagnostic.Finding])
    /// A bank export whose header was recognised, but that cannot be read without a profile.
    case unknown(Diagnostic.Finding)
    /// A bank export read completely but for its account, which neither a column nor the
    /// preamble gives: the dialect lacks only `account.iban`.
    case lacksAccount(Dialect, assumptions: [Diagnostic.Finding], Diagnostic.Finding)
    /// A bank export whose columns were recognised but for questions only its user can
    /// answer (which column is the amount, which sign): the dialect holds one possible answer.
    case open(Dialect, OpenQuestions, Diagnostic.Finding)
    /// No line looks like the header of a statement.
    case noHeader
    /// The file holds something else than a statement: contacts, orders.
    case notStatement(Diagnostic.Finding)

    /// What the values of a file leave open.
    package struct OpenQuestions: Sendable {
        /// The columns, by header text or number, one of which is the amount.
        package var amountColumns: [String] = []
        /// Whether every amount is positive, with no balance to tell the sign.
        package var isSignOpen = false
        /// Whether the file does not name its account either.
        package var isAccountOpen = false
        /// The date formats (day first, month first) between which the dates leave the choice
        /// open; empty when they decide.
        package var dateFormats: [String] = []

        /// Whether anything is open.
        var isOpen: Bool {
            !amountColumns.isEmpty || isSignOpen || isAccountOpen || !dateFormats.isEmpty
        }
    }
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
        case .unknown(let finding), .lacksAccount(_, _, let finding), .open(_, _, let finding),
            .notStatement(let finding):
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

extension SniffResult.OpenQuestions {
    /// What a file's values showed and what they leave open, for the refusal.
    func message(recognising dialect: Dialect) -> DiagnosticMessage {
        func column(_ field: Dialect.Field) -> String? {
            dialect.columns[field]?.first.map { Diagnostic.quote(SniffEvidence.columnText($0)) }
        }
        var recognised: [String] = []
        if let date = column(.date) {
            recognised.append(
                "dates in \(date)" + (dateFormats.isEmpty ? " (\(dialect.dateFormat.pattern))" : "")
            )
        }
        if let text = column(.description) ?? column(.beneficiary) {
            recognised.append("text in \(text)")
        }
        recognised.append(column(.balance).map { "a balance in \($0)" } ?? "no balance column")
        var open: [String] = []
        if amountColumns.count > 1 {
            open.append(
                "which column is the amount ("
                    + amountColumns.map(Diagnostic.quote).joined(separator: " or ") + ")")
        }
        if isSignOpen {
            open.append(
                "whether positive amounts are money in (sign signed) or charges (sign charges-positive)"
            )
        }
        if !dateFormats.isEmpty {
            open.append(
                "which order the dates are in ("
                    + dateFormats.map(Diagnostic.quote).joined(separator: " or ") + ")")
        }
        if isAccountOpen { open.append("the account (--account ID)") }
        return .openQuestions(recognised: recognised, open: open)
    }
}
