/// Works out how a bank export is written (<doc:Profiles>): encoding, separator, header line,
/// column mapping, decimal mark, date layout, sign convention, footer and the account.
///
/// It never guesses silently: when the evidence leaves a choice open (all days 12 or less,
/// only amounts like `1.000`, no currency named) it says what it assumed, and when the
/// evidence contradicts itself it refuses.
package enum DialectSniffer {
    /// How many records are searched for the header.
    static let headerSearchLimit = 50
    static let separators: [UInt8] = Array(",;\t|".utf8)

    /// Sniffs the raw bytes of a CSV file.
    ///
    /// - Parameter given: the account a profile or `--account` fixes (`Dialect.sniffsLayout`),
    ///   for a file that does not name its own; its currency stands where the file names none.
    package static func sniff(_ bytes: [UInt8], account given: Dialect? = nil) -> SniffResult {
        sniffDecoding(bytes, account: given).result
    }

    /// Sniffs the raw bytes of a CSV file; also returns them decoded in the encoding found,
    /// so that a reader does not decode them a second time.
    static func sniffDecoding(_ bytes: [UInt8], account given: Dialect? = nil)
        -> (result: SniffResult, text: [UInt8])
    {
        var assumptions: [Diagnostic.Finding] = []
        var dialect = Dialect()
        if let given {
            dialect.accountID = given.accountID
            dialect.accountName = given.accountName
            dialect.accountCurrency = given.accountCurrency
            dialect.accountCurrencies = given.accountCurrencies
            dialect.accountKind = given.accountKind
        }
        dialect.encoding = TextEncoding.detected(in: bytes, &assumptions)
        let text = dialect.encoding.utf8(from: bytes)
        return (sniff(text, &dialect, &assumptions), text)
    }

    private static func sniff(
        _ text: [UInt8], _ dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) -> SniffResult {
        guard var header = findHeader(text) else {
            if let other = ColumnRoles.notStatement(text) { return .notStatement(other) }
            return ColumnRoles.recognition(text).map(SniffResult.unknown) ?? .noHeader
        }
        // A first column headed `IBAN` below an IBAN above the header is a counterparty's:
        // the account is already named.
        if header.preamble.contains(where: {
            $0.fields.contains { HeaderVocabulary.iban(in: $0) != nil }
        }) {
            header.takeFirstColumnIBANAsCounterparty()
        }
        if header.indices[.amount] != nil, header.indices[.indicator] == nil,
            header.typeColumn == nil
        {
            // A column of debit/credit words beside unsigned amounts, whatever its header.
            header.typeColumn = ColumnRoles.indicatorColumn(text, header)
        }
        dialect.separator = header.separator
        dialect.headerLine = header.line
        dialect.columns = header.columns
        var evidence = SniffEvidence(header: header)
        evidence.scan(text)
        if let refusal = settleAccountColumn(&header, &evidence, &dialect, &assumptions) {
            return .unknown(refusal)
        }
        var open = header.openQuestions
        if let formats = evidence.openDateOrder() {
            open = open ?? SniffResult.OpenQuestions()
            open?.dateFormats = formats
        }
        do throws(Refusal) {
            if try evidence.decide(into: &dialect, &assumptions) {
                open = open ?? SniffResult.OpenQuestions()
                open?.isSignOpen = true
            }
        } catch {
            guard error.lacksOnlyAccount else { return .unknown(error.finding) }
            guard open != nil else {
                return .lacksAccount(dialect, assumptions: assumptions, error.finding)
            }
            open?.isAccountOpen = true
        }
        // A card account's positive amounts are charges (`decideCardSign`, said).
        if dialect.sign != .signed { open?.isSignOpen = false }
        if let open, open.isOpen {
            let finding = Diagnostic.Finding(
                line: header.line, column: 1, message: open.message(recognising: dialect))
            return .open(dialect, open, finding)
        }
        return .dialect(dialect, assumptions: assumptions)
    }

    /// Settles whose IBANs an account column holds where the header alone cannot say: in a
    /// file without header, or in a first column headed `IBAN`. Returns the reason to refuse
    /// the file, if any; drops the column where the account is given.
    private static func settleAccountColumn(
        _ header: inout Header, _ evidence: inout SniffEvidence, _ dialect: inout Dialect,
        _ assumptions: inout [Diagnostic.Finding]
    ) -> Diagnostic.Finding? {
        // A column of one IBAN in the first rows of a file without header, or headed `IBAN`
        // as the first column, is taken as the account's (without header only when no
        // account is given). Another IBAN in it later on is another account's rows or a
        // counterparty's, which only a profile can tell.
        if header.line == 0 || header.accountIsFirstColumnIBAN,
            let index = header.indices[.account], evidence.accountColumnVaries,
            let first = evidence.firstAccountCell, let other = evidence.otherAccount
        {
            return Diagnostic.Finding(
                line: other.line, column: other.column,
                message: .severalIBANsInColumn(
                    column: header.line == 0
                        ? "column \(index + 1)" : "column \(Diagnostic.quote("IBAN"))",
                    hasHeader: header.line != 0,
                    first: Diagnostic.quote(String(decoding: first, as: UTF8.self)),
                    other: evidence.quoted(other)))
        } else if header.accountIsFirstColumnIBAN, let given = dialect.accountID,
            let first = evidence.firstAccountCell,
            given.iban != (try? IBAN(parsing: String(decoding: first, as: UTF8.self)))
        {
            // The account given is not the one the column names on every row: the column
            // is the account's (another account's file) or a counterparty's; only a profile
            // can tell.
            let sample = evidence.accountTexts.values.min { $0.line < $1.line }
            return Diagnostic.Finding(
                line: sample?.line ?? header.line, column: sample?.column ?? 1,
                message: .firstColumnIBANNotGiven(
                    Diagnostic.quote(String(decoding: first, as: UTF8.self)),
                    given: given.text))
        } else if header.line == 0 || header.accountIsFirstColumnIBAN,
            header.indices[.account] != nil, dialect.accountID != nil
        {
            evidence.dropAccountColumn()
            header = evidence.header
            dialect.columns = header.columns
        } else if header.line == 0, let index = header.indices[.account],
            let example = evidence.accountTexts.values.min(by: { $0.line < $1.line })
        {
            assumptions.append(
                Diagnostic.Finding(
                    line: example.line, column: example.column,
                    message: .assumedAccountColumn(
                        column: index + 1, example: evidence.quoted(example))))
        }
        return nil
    }

    /// A header row and what its columns map to.
    struct Header {
        let separator: UInt8
        let line: Int
        var columns: [Dialect.Field: [Dialect.ColumnReference]]
        /// The field index of each column.
        var indices: [Dialect.Field: Int]
        /// The currency named in a header such as `Betrag (EUR)`.
        let currency: Currency?
        /// The fields of each preamble line, by line.
        let preamble: [(line: Int, fields: [String])]
        /// Whether a column names a card (`Card Member`, `Card No.`): a card statement.
        var mentionsCard = false
        /// Whether it has a transaction and a posting date (`HeaderVocabulary`).
        var hasTransactionAndPostDates = false
        /// A second column named as a date (`HeaderVocabulary.dateNames`), such as the value
        /// date beside the booking date.
        var otherDateColumn: Int?
        /// A column that names the card of each row (`Card No.`).
        var cardColumn: (index: Int, text: String)?
        /// A column of fees charged beside the amount (`Fee`, `Gebühr`), which no dialect
        /// reads: a file with a fee in it is refused.
        var feeColumn: (index: Int, text: String)?
        /// A column of account numbers (`Account Number`) that no field reads
        /// (`HeaderVocabulary.accountNumberNames`).
        var accountNumberColumn: (index: Int, text: String)?
        /// Questions the values leave open: the columns of which one is the amount, when no
        /// balance and no header word tells; the sign, when every amount is positive.
        var openQuestions: SniffResult.OpenQuestions?
        /// A column named like a transaction type, beside a signed amount column; it is the
        /// indicator when its values are a debit/credit pair.
        var typeColumn: (index: Int, text: String)?

        /// Whether the header is canonical CSV's: its required columns, every column found
        /// named as there (`date`, `account_iban`, `amount` …). Its amounts are signed,
        /// whatever the account.
        var isCanonical: Bool {
            Set(columns.keys).isSuperset(of: Dialect.Field.canonicalRequired)
                && columns.allSatisfy { field, references in
                    references.allSatisfy { reference in
                        guard case .name(let name) = reference else { return false }
                        return Dialect.Field(canonicalHeader: name) == field
                    }
                }
        }

        /// Whether the account's column is the first one, headed `IBAN`
        /// (`HeaderVocabulary.field(named:at:among:)`).
        var accountIsFirstColumnIBAN: Bool {
            guard indices[.account] == 0, case .name(let name)? = columns[.account]?.first else {
                return false
            }
            return HeaderVocabulary.normalized(name).name == "iban"
        }

        /// Takes the first column, headed `IBAN`, as the counterparty's after all.
        mutating func takeFirstColumnIBANAsCounterparty() {
            guard accountIsFirstColumnIBAN, let column = columns.removeValue(forKey: .account)
            else { return }
            indices[.account] = nil
            if columns[.beneficiaryIBAN] == nil {
                (columns[.beneficiaryIBAN], indices[.beneficiaryIBAN]) = (column, 0)
            }
        }
    }

    /// Finds the first line, for any separator, that names a date and an amount.
    static func findHeader(_ text: [UInt8]) -> Header? {
        var best: (header: Header, score: Int)?
        for separator in separators {
            var reader = CSVReader(source: MemoryByteSource(text), separator: separator)
            var preamble: [(line: Int, fields: [String])] = []
            for _ in 0..<headerSearchLimit {
                guard (try? reader.nextRecord()) == true else { break }
                let (line, names) = reader.withRecord { record in
                    (
                        record.line,
                        record.fields.indices.map { index in
                            record.withField(index) { String(decoding: $0, as: UTF8.self) }
                        }
                    )
                }
                if let header = HeaderVocabulary.header(
                    names, separator: separator, line: line, preamble: preamble)
                {
                    let score = header.columns.count
                    if score > (best?.score ?? 0) { best = (header, score) }
                    break
                }
                preamble.append((line, names))
            }
        }
        return best?.header ?? ColumnRoles.header(text)
    }

    /// Why sniffing gives up on a file.
    struct Refusal: Error {
        let finding: Diagnostic.Finding
        /// Whether all that is missing is the account, the rest being decided.
        var lacksOnlyAccount = false
    }
}
