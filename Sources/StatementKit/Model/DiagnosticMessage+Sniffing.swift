// The message catalogue: sniffing a CSV file's dialect.

extension DiagnosticMessage {
    /// The sniffer cannot tell the layout; `reason` says what it lacks.
    private static func dialectUnknown(_ reason: String) -> Self {
        .init(.dialectUnknown, reason + "; write a profile for it (see statements profile)")
    }

    static func noHeaderFound(searched lines: Int) -> Self {
        .init(
            .dialectUnknown,
            "no line in the first \(lines) names a date column and an amount column (or debit and credit columns), with a beneficiary or a description"
        )
    }

    static let noDateInKnownLayout = dialectUnknown(
        "no row under the header has a date in a known layout")

    static func unknownIndicatorPair(_ seen: [String]) -> Self {
        dialectUnknown(
            "the indicator column holds \(seen.sorted().map { Diagnostic.quote($0) }.joined(separator: ", ")), not a known debit/credit pair"
        )
    }

    static let balanceEitherWay = dialectUnknown(
        "every row is on the same day, so the dates do not tell which way the rows are listed, and the balance column follows the amounts two ways with opposite signs: as the balance after each row with the rows newest first and the signs turned, or as the balance before each row with the signs as written; give rowOrder and the sign (or the debit and credit columns) in a profile"
    )

    static let datesInNoOrder = dialectUnknown("the dates are neither day-first nor month-first")

    // The sniffer's examples come quoted, with their line: `"12/13/26" (line 4)`.

    static func datesInNoLayout(example: String) -> Self {
        dialectUnknown("dates such as \(example) have no known layout")
    }

    static func mixedDecimalMarks(comma: String, point: String) -> Self {
        dialectUnknown(
            "amounts have decimal commas, such as \(comma), and decimal points, such as \(point)")
    }

    static let noAccountIBAN = Self(
        .dialectUnknown,
        "the file does not name its account: no column holds it and no line above the header names an IBAN; give it with --account ID or a folder profile {\"account\": {\"id\": …}}"
    )

    static func severalAccountsNamed(column: String, _ names: [String]) -> Self {
        dialectUnknown(
            "column \(Diagnostic.quote(column)) names several accounts (\(names.sorted().map { Diagnostic.quote($0) }.joined(separator: ", "))); map each to its id with the profile's \"accounts\""
        )
    }

    /// A file in which no header was found, and what its columns were recognised to hold.
    static func recognisedOnly(recognised: [String], missing: [String]) -> Self {
        dialectUnknown(
            "no header names the columns; recognised \(recognised.joined(separator: ", ")), but not \(missing.joined(separator: ", nor "))"
        )
    }

    /// A file whose columns were recognised, but whose values leave a question open.
    static func openQuestions(recognised: [String], open: [String]) -> Self {
        .init(
            .dialectUnknown,
            "recognised \(recognised.joined(separator: ", ")), but not \(open.joined(separator: ", nor ")); statements profile FILE prints a profile with FILL IN where the file leaves it open"
        )
    }

    static func unknownStatus(_ example: String) -> Self {
        dialectUnknown(
            "the status column holds \(example), neither a known booked status nor a known pending one"
        )
    }

    static func givenCurrencyDiffersFromColumn(given: Currency, _ example: String) -> Self {
        dialectUnknown(
            "the account's currency is \(given.code), but the currency column holds \(example)")
    }

    static func twoDigitYearOpen(example: String, yearFirst: String, yearLast: String) -> Self {
        dialectUnknown(
            "dates such as \(example) read as \(yearFirst) or as \(yearLast), and the file does not tell which; give the dateFormat in a profile"
        )
    }

    static func firstColumnIBANNotGiven(_ example: String, given: String) -> Self {
        dialectUnknown(
            "the first column, \"IBAN\", holds \(example) on every row, and the account given is \(given): it is the file's own account (the file is another account's) or a counterparty's, which only a profile can tell (columns.account or columns.beneficiary_iban)"
        )
    }

    static func otherAccountNumber(column: String, _ example: String, given: String) -> Self {
        dialectUnknown(
            "column \(Diagnostic.quote(column)) names account \(example), which the account given, \(given), is not: the file is another account's"
        )
    }

    static func splitAmountOfBothSigns(_ example: String) -> Self {
        dialectUnknown(
            "a debit or credit column holds amounts of both signs, such as \(example): a negative one may be a reversal (money back) or a debit written with its sign, which the file does not tell"
        )
    }

    static func headerCurrencyDiffersFromColumn(header: Currency, _ example: String) -> Self {
        dialectUnknown(
            "the header names \(header.code) for the amounts, but the currency column holds \(example): it may be another amount's currency (an original amount's); a profile says which column is the amount's currency"
        )
    }

    static func givenCurrencyDiffers(given: Currency, header: Currency) -> Self {
        dialectUnknown(
            "the account's currency is \(given.code), but the header names \(header.code)")
    }

    static func fileNamesAccount(unused given: AccountID) -> Self {
        .init(
            .dialectAssumed,
            "the file names its own account; the account given, \(given.text), is not used")
    }

    static func assumedUTF16(_ encoding: TextEncoding) -> Self {
        .init(
            .dialectAssumed,
            "the file has no byte order mark but looks like UTF-16; read it as \(encoding.rawValue)"
        )
    }

    static let assumedWindows1252 = Self(
        .dialectAssumed, "the file is not valid UTF-8; read it as windows-1252")

    static func feeBesideAmount(column: String, example: String) -> Self {
        dialectUnknown(
            "column \(Diagnostic.quote(column)) holds a fee beside the amount, such as \(example), and no balance shows whether the amount includes it, it is taken from the amount or added with its sign: the account would miss it; a profile with columns.fee and fee (deducted or signed) reads it"
        )
    }

    static func feeInAmount(column: String, example: String) -> Self {
        .init(
            .dialectAssumed,
            "column \(Diagnostic.quote(column)) holds a fee beside the amount, such as \(example); the balance shows the amount includes it (the fee is not read)"
        )
    }

    static func feeByBalance(column: String, example: String, sign: Dialect.FeeSign) -> Self {
        .init(
            .dialectAssumed,
            "column \(Diagnostic.quote(column)) holds a fee beside the amount, such as \(example); the balance shows it is \(sign == .deducted ? "taken from the amount" : "added to the amount with its sign") (fee \(sign.rawValue))"
        )
    }

    static func balanceRowAmongBookings(_ example: String) -> Self {
        dialectUnknown(
            "the row labelled \(example) is a balance or a total, not a booking, and no profile can leave it out where it stands (footerLines leaves out a closing balance on the last lines only)"
        )
    }

    static func balanceRowAsFooter(_ example: String, _ item: Dialect.PreambleItem) -> Self {
        let which = item == .openingBalance ? "opening" : "closing"
        return .init(
            .dialectAssumed,
            "the last row, \(example), is the \(which) balance, not a booking: checked as the statement's \(which) balance (footer)"
        )
    }

    static func typeDisagreesWithSign(column: String, example: String) -> Self {
        dialectUnknown(
            "the amounts carry their sign, and column \(Diagnostic.quote(column)) says debit or credit, but the two disagree: \(example) stands beside an amount of the other sign; which is right only a profile can say"
        )
    }

    static func severalPreambleIBANs(_ ibans: [String]) -> Self {
        dialectUnknown(
            "the lines above the header name several IBANs ("
                + Array(Set(ibans)).sorted().map { Diagnostic.quote($0) }.joined(separator: ", ")
                + ") and do not say which is the statement's: give it with --account ID")
    }

    /// `column` as the message names it: `column 1` in a file without header, else its name.
    static func severalIBANsInColumn(column: String, hasHeader: Bool, first: String, other: String)
        -> Self
    {
        dialectUnknown(
            "\(hasHeader ? "" : "the file has no header, and ")\(column) holds the IBAN \(first) on its first rows and \(other) later: the rows of several accounts, or counterparties, which only a profile can tell (columns.account or columns.beneficiary_iban)"
        )
    }

    static func assumedSortCodeAccount(column: String, example: String, id: String) -> Self {
        .init(
            .dialectAssumed,
            "column \(Diagnostic.quote(column)) holds one sort code and account number on every row, \(example); assumed it is the account's, \(id)"
        )
    }

    static func assumedAccountColumn(column: Int, example: String) -> Self {
        .init(
            .dialectAssumed,
            "the file has no header, and column \(column) holds one IBAN on every row, \(example); assumed it is the account's"
        )
    }

    static func assumedDateOrder(example: String, chosen: String, other: String) -> Self {
        .init(
            .dialectAssumed,
            "every date has a day and a month of 12 or less, such as \(example); read as \(chosen), the only order that lists the rows by date (not \(other))"
        )
    }

    static func assumedYearFirst(example: String, chosen: String) -> Self {
        .init(
            .dialectAssumed,
            "dates such as \(example) begin and end with two digits, and read with the year last their years would span seven or more, or list the rows out of date order: read as \(chosen), the year first"
        )
    }

    static func assumedDecimalMark(example: String, isComma: Bool) -> Self {
        let (mark, thousands) = isComma ? ("\",\"", "\".\"") : ("\".\"", "\",\"")
        return .init(
            .dialectAssumed,
            "no amount shows the decimal mark, and \(example) reads either way; assumed \(mark) is the decimal mark and \(thousands) separates thousands"
        )
    }

    static let balanceOwed = Self(
        .dialectAssumed,
        "the balance column rises by each amount and is mostly positive on a card account: it is what is owed; read charges positive and payments negative (sign charges-positive)"
    )

    static let balanceFallsByAmounts = Self(
        .dialectAssumed,
        "the balance column falls by each positive amount: read amounts as charges positive (sign charges-positive); the balance column is not used"
    )

    static let balanceOwedByCharges = Self(
        .dialectAssumed,
        "the balance column rises by each negative amount and is mostly positive on a card account: it is what is owed, and is not used; amounts read as signed"
    )

    static let balanceOwedByDebits = Self(
        .dialectAssumed,
        "the balance column rises by each debit and is mostly positive on a card account: it is what is owed, and is not used"
    )

    static func balanceSwapsDebitCredit(debit: String, credit: String) -> Self {
        .init(
            .dialectAssumed,
            "the balance column rises by column \(Diagnostic.quote(debit)) and falls by \(Diagnostic.quote(credit)): read \(Diagnostic.quote(debit)) as money in (columns.credit) and \(Diagnostic.quote(credit)) as money out (columns.debit)"
        )
    }

    static let assumedChargesPositiveByType = Self(
        .dialectAssumed,
        "a card account whose type column shows sales positive or payments negative: read charges positive and payments negative (sign charges-positive)"
    )

    static func assumedChargesPositive(positive: Int, of count: Int) -> Self {
        .init(
            .dialectAssumed,
            "a card account whose amounts are positive in \(positive) of \(count) rows: read them as charges positive and payments negative (sign charges-positive)"
        )
    }

    /// An amount converted at a rate (OFX `CURRENCY`) into more decimals than the account's
    /// currency has, rounded half away from zero.
    static func assumedRounding(_ amount: Money, rate: String, exact: String, rounded: Money)
        -> Self
    {
        .init(
            .dialectAssumed,
            "TRNAMT \(amount.decimalText) \(amount.currency.code) at CURRATE \(Diagnostic.quote(rate)) is \(exact); assumed \(rounded.decimalText) \(rounded.currency.code), rounded half away from zero, as the file does not give the amount booked"
        )
    }

    static func assumedCurrencyOfAmounts(_ currency: Currency, example: String) -> Self {
        .init(
            .dialectAssumed,
            "no currency column; the amounts are written in \(currency.code), such as \(example)")
    }

    static func currencyBesideIBAN(_ currency: Currency, _ example: String) -> Self {
        .init(
            .dialectAssumed,
            "no currency column; the line above the header names \(currency.code) beside the account's IBAN, \(example)"
        )
    }

    static func currencySignAmbiguous(example: String, _ codes: [String]) -> Self {
        dialectUnknown(
            "the amounts are written with a sign of several currencies (\(codes.joined(separator: ", "))), such as \(example), and nothing else in the file says which; give it with --currency CODE or a profile's account.currency"
        )
    }

    static func amountsInSeveralCurrencies(_ examples: String) -> Self {
        dialectUnknown(
            "the amounts are written in several currencies, such as \(examples), and no column says each row's; a profile with a currency column or account.currencies can read it"
        )
    }

    static func assumedCurrency(_ currency: Currency) -> Self {
        .init(
            .dialectAssumed,
            "no currency column, and neither the header nor the preamble names a currency; assumed \(currency.code)"
        )
    }
}
