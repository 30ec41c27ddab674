/// The decision on a dialect from the evidence: its columns, dates, amounts and account.
extension SniffEvidence {
    func refuse(_ sample: Sample?, _ message: DiagnosticMessage) -> DialectSniffer.Refusal {
        DialectSniffer.Refusal(
            finding: Diagnostic.Finding(
                line: sample?.line ?? header.line, column: sample?.column ?? 1, message: message))
    }

    func quoted(_ sample: Sample) -> String {
        "\(Diagnostic.quote(sample.text)) (line \(sample.line))"
    }

    /// Decides the dialect from the evidence, saying each assumption.
    ///
    /// - Returns: whether a card account's sign is left open (`decideCardSign`).
    func decide(into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding])
        throws(DialectSniffer.Refusal) -> Bool
    {
        guard let firstDate, let dateLayout else {
            throw refuse(nil, .noDateInKnownLayout)
        }
        dialect.dateFormat = try dateFormat(dateLayout, firstDate, &assumptions)
        if let newestFirst = datesListNewestFirst(dialect) {
            dialect.isNewestFirst = newestFirst
        }
        try decideAmounts(into: &dialect, &assumptions)
        if let negative = negativeSplitAmount,
            splitSigns.contains(where: { $0.negative > 0 && $0.positive > 0 })
        {
            throw refuse(negative, .splitAmountOfBothSigns(quoted(negative)))
        }
        try decideFee(into: &dialect, &assumptions)
        decideAmountColumns(into: &dialect)
        dialect.footerLines = trailingNonData
        try decideBalanceRow(into: &dialect, &assumptions)
        try decideAccountColumn(into: &dialect)
        try decideIndicator(into: &dialect)
        try decideStatus(into: &dialect)
        dropWeakCurrency(from: &dialect)
        try decideAccount(into: &dialect, &assumptions)
        // Rows typed as sales or purchases are a card's, unless the account given is a bank
        // account (an IBAN, a routing or sort code): its purchases are card payments. A
        // column of card numbers alone makes no card: a current account's export may show
        // the debit card each row was paid with.
        let isBankAccount =
            dialect.accountID.map { $0.iban != nil || ![.name, .card].contains($0.scheme) } ?? false
        let isCard =
            header.mentionsCard || dialect.accountKind == .creditCard
            || dialect.accountID?.scheme == .card
            || (!isBankAccount && charges.count > 0)
        var isSignOpen = false
        switch try decideByBalance(into: &dialect, isCard: isCard, &assumptions) {
        case .proved: break
        case .open: isSignOpen = true
        case .unproved:
            isSignOpen = decideCardSign(into: &dialect, isCard: isCard, &assumptions)
            // Amounts without a sign beside a type column of several kinds of booking
            // (`ACH Debit`, `POS`, `Check`): the type, not the amount, says which way.
            isSignOpen =
                isSignOpen
                || (dialect.sign == .signed && negativeAmounts == 0 && amountCount >= 2
                    && header.typeColumn != nil && typeValues.count >= 2)
            // On an account not known as a card, with no balance to check them: three amounts
            // or more, every one positive (unsigned amounts, which words such as
            // `Lastschrift` may sign, or a card's charges), or two thirds positive under a
            // card issuer's two dates (`Trans. Date`, `Post Date`).
            isSignOpen =
                isSignOpen
                || (!isCard && dialect.sign == .signed && !header.isCanonical
                    && amountCount >= 3
                    && (negativeAmounts == 0
                        || (header.hasTransactionAndPostDates
                            && negativeAmounts * 3 <= amountCount)))
        }
        if dialect.columns[.account] == nil { decideBalances(into: &dialect) }
        return isSignOpen
    }

    /// Takes a column named like the account that holds names, not IBANs, as the account's
    /// name; refuses several accounts' rows; leaves the text to the description where no row
    /// fills the payee column.
    private func decideAccountColumn(into dialect: inout Dialect) throws(DialectSniffer.Refusal) {
        // Account numbers, not IBANs, that split the rows among them: several accounts (or
        // a counterparty's, which the file does not tell apart).
        if let column = header.accountNumberColumn, accountNumbers.count >= 2,
            !accountNumbers.values.contains(where: { Self.isIBANShaped($0.text) })
        {
            throw refuse(
                accountNumbers.values.min { $0.line < $1.line },
                .severalAccountsNamed(column: column.text, accountNumbers.values.map(\.text)))
        }
        // One account number on every row whose digits the given account (of an id that
        // holds the number: a routing, sort or BSB code and the number, or a British or Irish
        // IBAN, which holds a sort code and the number) does not hold: the file is another
        // account's.
        if let column = header.accountNumberColumn, accountNumbers.count == 1,
            let number = accountNumbers.values.first, !Self.isIBANShaped(number.text),
            let given = dialect.accountID,
            [.aba, .sortCode, .bsb].contains(given.scheme)
                || ["GB", "IE"].contains(given.iban?.electronic.prefix(2))
        {
            // All its digits, in a row: a masked number (`****6789`) leaves its last ones.
            let digits = { (text: String) in text.filter(\.isASCII).filter(\.isNumber) }
            let written = digits(number.text)
            if written.count >= 4, !digits(given.text).contains(written) {
                throw refuse(
                    number,
                    .otherAccountNumber(
                        column: column.text, quoted(number), given: given.text))
            }
        }
        if let column = dialect.columns[.account], !accountColumnHoldsIBANs {
            // A column named like the account that holds names (Checking, Cash), not IBANs:
            // one account's name, or several accounts that only a profile can tell apart.
            if accountTexts.count > 1, case .name(let name) = column[0] {
                let example = accountTexts.values.min { $0.line < $1.line }
                throw refuse(
                    example, .severalAccountsNamed(column: name, accountTexts.values.map(\.text)))
            }
            let names = dialect.columns.removeValue(forKey: .account)
            if dialect.columns[.accountName] == nil { dialect.columns[.accountName] = names }
        }
        try refuseSeveralAccounts(in: dialect)
        if beneficiaryFilled == 0, dialect.columns[.description] != nil {
            // A payee column that no row fills (`Modtager`) leaves the text to the description.
            dialect.columns[.beneficiary] = nil
        }
    }

    /// Decides the sign from an indicator column, or a type column whose values say debit
    /// or credit (which signed amounts must agree with); else debit and credit columns.
    private func decideIndicator(into dialect: inout Dialect) throws(DialectSniffer.Refusal) {
        var indicators = self.indicators
        if let type = header.typeColumn, !typeValues.isEmpty,
            Self.indicatorPairs.contains(where: {
                Set(typeValues.keys).isSubset(of: Set($0.0 + $0.1))
            })
        {
            if negativeAmounts == 0 {
                // A type column whose values say debit or credit: the amounts' sign.
                dialect.columns[.indicator] = [.name(type.text)]
                indicators = typeValues
            } else if let typeDisagreement {
                // Amounts that carry their sign, and a type that says the other.
                throw refuse(
                    typeDisagreement,
                    .typeDisagreesWithSign(column: type.text, example: quoted(typeDisagreement)))
            }
        }
        if dialect.columns[.indicator] != nil {
            dialect.sign = .indicator
            let seen = Set(indicators.keys)
            guard
                let (debit, credit) = Self.indicatorPairs.first(where: {
                    seen.isSubset(of: Set($0.0 + $0.1))
                })
            else {
                let example = indicators.values.min { $0.line < $1.line }
                throw refuse(example, .unknownIndicatorPair(Array(seen)))
            }
            // As the file writes them: the reader compares ignoring the case of ASCII letters
            // only (`Débito`).
            func written(_ words: [String]) -> [String] {
                let seen = indicators.filter { words.contains($0.key) }.values.map(\.text)
                return seen.isEmpty ? words : Array(Set(seen)).sorted()
            }
            let accented = (debit + credit).contains { $0.unicodeScalars.contains { !$0.isASCII } }
            (dialect.debitIndicators, dialect.creditIndicators) =
                accented ? (written(debit), written(credit)) : (debit, credit)
        } else if dialect.columns[.amount] == nil {
            dialect.sign = .debitCredit
        }
    }

    /// Finds the opening and closing balances that preamble and footer lines label
    /// (`Beginning balance …`, `Neuer Kontostand`): the first field holding a digit after
    /// the label.
    private func decideBalances(into dialect: inout Dialect) {
        func position(_ fields: [String], line: Int) -> (
            Dialect.PreambleItem, Dialect.PreamblePosition
        )? {
            guard
                let labelIndex = fields.firstIndex(where: {
                    !$0.trimmingCharacters(in: .whitespaces).isEmpty
                }),
                let item = HeaderVocabulary.balanceLabel(fields[labelIndex]),
                let valueIndex = fields.indices.first(where: {
                    $0 > labelIndex && fields[$0].contains(where: \.isNumber)
                })
            else { return nil }
            return (item, Dialect.PreamblePosition(line: line, field: valueIndex + 1))
        }
        for (line, fields) in header.preamble {
            if let (item, found) = position(fields, line: line), dialect.preamble[item] == nil {
                dialect.preamble[item] = found
            }
        }
        guard trailingRecords.count == trailingNonData else { return }
        for (index, fields) in trailingRecords.enumerated() {
            if let (item, found) = position(fields, line: trailingRecords.count - index),
                dialect.preamble[item] == nil, dialect.footer[item] == nil
            {
                dialect.footer[item] = found
            }
        }
    }

    /// Header names that may mean a field or something else (`Info`, `Valuta`: a currency in
    /// Swedish and Italian, a value date in German): the column is the field only when its
    /// values fit.
    static let weakNames: Set<String> = ["info", "valuta"]

    private func isWeak(_ field: Dialect.Field, in dialect: Dialect) -> Bool {
        guard case .name(let name)? = dialect.columns[field]?.first else { return false }
        return Self.weakNames.contains(HeaderVocabulary.normalized(name).name)
    }

    /// Keeps an amount column that rows fill, else the debit and credit columns beside it.
    private func decideAmountColumns(into dialect: inout Dialect) {
        guard dialect.columns[.amount] != nil, dialect.columns[.debit] != nil else { return }
        if amountCount > 0 {
            (dialect.columns[.debit], dialect.columns[.credit]) = (nil, nil)
        } else {
            dialect.columns[.amount] = nil
        }
    }

    /// Drops a column weakly named like the currency whose values are not all currencies.
    private func dropWeakCurrency(from dialect: inout Dialect) {
        if isWeak(.currency, in: dialect),
            currencies.keys.contains(where: { Currency(code: $0) == nil })
        {
            dialect.columns[.currency] = nil
        }
    }

    /// Decides a card account's sign convention where no balance proves it: by the sign of
    /// the rows its type column calls sales (or payments), else by a clear majority (two to
    /// one, five amounts at least: a month of few rows may hold more refunds than charges)
    /// of positive or negative amounts, as charges outnumber payments. Card issuers write
    /// charges either way.
    ///
    /// - Returns: whether the sign is left open (a split count, or types of both signs).
    private func decideCardSign(
        into dialect: inout Dialect, isCard: Bool, _ assumptions: inout [Diagnostic.Finding]
    ) -> Bool {
        guard isCard, dialect.sign == .signed, amountCount > 0, !header.isCanonical else {
            return false
        }
        let chargesPositive: Bool
        let message: DiagnosticMessage
        let positive = amountCount - negativeAmounts
        let (hasCharges, hasPayments) = (charges.count > 0, payments.count > 0)
        if typeAgreements > 0, typeDisagreement == nil, !hasCharges, !hasPayments {
            // A type column whose debit and credit words agree with every sign: as written.
            return false
        }
        if hasCharges || hasPayments {
            // Sales positive, or payments negative, say charges positive.
            let chargesSay = charges.negative == 0 ? true : charges.positive == 0 ? false : nil
            let paymentsSay = payments.positive == 0 ? true : payments.negative == 0 ? false : nil
            if (hasCharges && chargesSay == nil) || (hasPayments && paymentsSay == nil) {
                return true
            }
            let says = Set(
                [hasCharges ? chargesSay : nil, hasPayments ? paymentsSay : nil].compactMap { $0 })
            guard says.count == 1 else { return true }
            chargesPositive = says.first!
            message = .assumedChargesPositiveByType
        } else if positive >= 2 * negativeAmounts, amountCount >= 5 {
            chargesPositive = true
            message = .assumedChargesPositive(positive: positive, of: amountCount)
        } else {
            // Most amounts negative: charges written negative, or a month of refunds and
            // payments on a card whose charges are positive; the amounts cannot tell.
            return true
        }
        guard chargesPositive else { return false }
        dialect.sign = .chargesPositive
        assumptions.append(Diagnostic.Finding(line: header.line, column: 1, message: message))
        return false
    }

    /// Whether the values of a column (upper case) are the debit and credit words of a known
    /// pair, both of them.
    static func isIndicatorPair(_ values: Set<String>) -> Bool {
        indicatorPairs.contains { debit, credit in
            values.isSubset(of: Set(debit + credit)) && !values.isDisjoint(with: debit)
                && !values.isDisjoint(with: credit)
        }
    }

    /// The status texts of booked rows and of rows not booked yet, upper case.
    static let bookedStatuses: Set<String> = [
        "BOOKED", "COMPLETED", "COMPLETE", "POSTED", "CLEARED", "SETTLED", "GEBUCHT",
        "UMSATZ GEBUCHT", "CONTABILIZZATO", "EXECUTED", "DONE", "UDFØRT", "COMPTABILISÉ",
        "SENT", "RECEIVED", "PAID", "CONFIRMED",
    ]
    static let notBookedStatuses: Set<String> = [
        "PENDING", "VORGEMERKT", "UMSATZ VORGEMERKT", "AUTHORISED", "AUTHORIZED",
        "NON CONTABILIZZATO", "EN ATTENTE", "EN COURS", "PENDIENTE", "IN AFWACHTING", "VENTER",
        "REVERTED", "DECLINED", "FAILED", "CANCELLED", "CANCELED", "OFFEN", "RESERVERAD",
        "RESERVERT", "RESERVERET", "VARAUS",
    ]

    /// Leaves out the rows that a status column marks as not booked yet; refuses a status
    /// that is neither known as booked nor as not booked.
    private func decideStatus(into dialect: inout Dialect) throws(DialectSniffer.Refusal) {
        guard let column = dialect.columns[.status]?.first else {
            // Rows whose date column says they are not booked yet (`offen`): the date column
            // is their status too.
            if !pendingDates.isEmpty, let date = dialect.columns[.date] {
                dialect.columns[.status] = date
                dialect.notBooked = pendingDates.values.sorted { $0.line < $1.line }.map(\.text)
            }
            return
        }
        if case .name(let name) = column, HeaderVocabulary.normalized(name).name == "pending" {
            // A column that answers "pending?" (`true`/`false`): the rows it says yes of.
            let yes: Set = ["TRUE", "YES", "Y", "1"]
            let no: Set = ["FALSE", "NO", "N", "0"]
            if let unknown = statuses.filter({ !yes.contains($0.key) && !no.contains($0.key) })
                .values.min(by: { $0.line < $1.line })
            {
                throw refuse(unknown, .unknownStatus(quoted(unknown)))
            }
            dialect.notBooked = statuses.filter { yes.contains($0.key) }.values
                .sorted { $0.line < $1.line }.map(\.text)
            if dialect.notBooked.isEmpty { dialect.columns[.status] = nil }
            return
        }
        if let unknown = statuses.filter({
            !Self.bookedStatuses.contains($0.key) && !Self.notBookedStatuses.contains($0.key)
        }).values.min(by: { $0.line < $1.line }) {
            // A column weakly named (`Info`) is a status only if its values are: unless one
            // of them says a row is not booked yet, which must not be read as booked.
            guard isWeak(.status, in: dialect),
                !statuses.keys.contains(where: Self.notBookedStatuses.contains)
            else {
                throw refuse(unknown, .unknownStatus(quoted(unknown)))
            }
            dialect.columns[.status] = nil
            return
        }
        let seen = statuses.filter { Self.notBookedStatuses.contains($0.key) }
        guard !seen.isEmpty else {
            dialect.columns[.status] = nil
            return
        }
        dialect.notBooked = seen.values.sorted { $0.line < $1.line }.map(\.text)
    }

    /// Whether each debit or credit word of `indicatorPairs` says debit.
    static let indicatorWords: [String: Bool] = Dictionary(
        indicatorPairs.flatMap { debit, credit in
            debit.map { ($0, true) } + credit.map { ($0, false) }
        },
        uniquingKeysWith: { first, _ in first })

    /// The debit and credit texts that banks write in an indicator or type column.
    static let indicatorPairs: [([String], [String])] = [
        (["D"], ["C"]), (["S"], ["H"]), (["AF"], ["BIJ"]), (["DR"], ["CR"]),
        (["DEBIT"], ["CREDIT"]), (["DBIT"], ["CRDT"]), (["-"], ["+"]), (["SOLL"], ["HABEN"]),
        (["DEBET"], ["CREDIT"]), (["WITHDRAWAL"], ["DEPOSIT"]), (["DÉBITO"], ["CRÉDITO"]),
        (["DEBITO"], ["CREDITO"]), (["DÉBIT"], ["CRÉDIT"]),
    ]

    private func decideAmounts(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    )
        throws(DialectSniffer.Refusal)
    {
        if let comma = decimalComma, let point = decimalPoint {
            throw refuse(
                commaVotes < pointVotes ? comma : point,
                .mixedDecimalMarks(comma: quoted(comma), point: quoted(point)))
        }
        let comma = UInt8(ascii: ",")
        let point = UInt8(ascii: ".")
        var decimal: UInt8
        if decimalComma != nil {
            decimal = comma
        } else if decimalPoint != nil || groupsWithApostrophe {
            decimal = point
        } else {
            decimal = dialect.separator == UInt8(ascii: ";") ? comma : point
            // Amounts of a currency of three decimals (the dinars: KWD, BHD, JOD, OMR, TND)
            // show three digits after their decimal mark.
            let codes =
                currencies.isEmpty
                ? [
                    dialect.accountCurrency ?? header.currency
                        ?? amountsCodes.flatMap { $0.codes.count == 1 ? $0.codes.first : nil }
                        .flatMap { Currency(code: $0) }
                ].compactMap { $0 }
                : currencies.keys.compactMap { Currency(code: $0) }
            if let ambiguous, !codes.isEmpty,
                let mark = ambiguous.text.utf8.first(where: { $0 == comma || $0 == point })
            {
                // A currency without decimals (JPY, KRW): `250,000` groups thousands.
                if codes.allSatisfy({ $0.minorUnitDigits == 3 }) { decimal = mark }
                if codes.allSatisfy({ $0.minorUnitDigits == 0 }) {
                    decimal = mark == comma ? point : comma
                }
            }
            if let ambiguous {
                assumptions.append(
                    Diagnostic.Finding(
                        line: ambiguous.line, column: ambiguous.column,
                        message: .assumedDecimalMark(
                            example: quoted(ambiguous), isComma: decimal == comma)))
            }
        }
        let thousands: UInt8 =
            groupsWithApostrophe
            ? UInt8(ascii: "'")
            : groupsWithSpace ? UInt8(ascii: " ") : decimal == comma ? point : comma
        dialect.amountFormat = AmountFormat(decimalMark: decimal, thousandsSeparator: thousands)
    }

    private func decideAccount(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) {
        if dialect.accountID == nil, dialect.columns[.account] == nil, preambleIBANs.isEmpty,
            let (id, sample) = sortCodeAccount, let column = header.accountNumberColumn
        {
            dialect.accountID = id
            assumptions.append(
                Diagnostic.Finding(
                    line: sample.line, column: sample.column,
                    message: .assumedSortCodeAccount(
                        column: column.text, example: quoted(sample), id: id.text)))
        }
        try decideCurrency(into: &dialect, &assumptions)
        let found = try preambleIBAN(given: dialect.accountID)
        if dialect.columns[.account] == nil, let found { dialect.preamble[.iban] = found }
        if let given = dialect.accountID, found != nil,
            let iban = given.iban, preambleIBANs.contains(where: { $0.iban == iban })
        {
            // The given account is the one the file names.
            dialect.accountID = nil
            return
        }
        if let given = dialect.accountID, dialect.columns[.account] != nil || found != nil {
            // The file names its own account: the given one is not used, and says so.
            dialect.accountID = nil
            assumptions.append(
                Diagnostic.Finding(
                    line: found?.line ?? header.line, column: found?.field ?? 1,
                    message: .fileNamesAccount(unused: given)))
        }
        guard dialect.namesAccount else {
            var refusal = refuse(nil, .noAccountIBAN)
            refusal.lacksOnlyAccount = true
            throw refusal
        }
    }
}
