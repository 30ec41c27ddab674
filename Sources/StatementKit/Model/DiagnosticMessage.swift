/// What a diagnostic says: its code and its wording.
///
/// Every wording lives in this file, one function per kind of problem, in the order of
/// `DiagnosticCode`, so that a code reads the same wherever it is found (as swift-format keeps
/// its `Finding.Message`s). Input text reaches a message only through `Diagnostic.quote`.
package struct DiagnosticMessage: Hashable, Sendable {
    package let code: DiagnosticCode
    package let text: String

    private init(_ code: DiagnosticCode, _ text: String) {
        self.code = code
        self.text = text
    }
}

// MARK: - Files and paths

extension DiagnosticMessage {
    /// An empty file; `requirement` is what it must at least hold ("a header row").
    static func fileEmpty(requiring requirement: String?) -> Self {
        .init(.fileEmpty, "the file is empty" + (requirement.map { "; \($0) is required" } ?? ""))
    }

    static func fileEndsBeforeHeader(line: Int) -> Self {
        .init(.fileEmpty, "the file ends before its header on line \(line)")
    }

    static let noRowsUnderHeader = Self(
        .fileNoTransactions, "the file has a header but no rows")

    static let noTransactions = Self(.fileNoTransactions, "the file holds no transactions")

    /// A path that cannot be read; `code` is `.pathNotFound` or `.pathUnreadable`.
    static func unreadable(_ path: String?, _ code: DiagnosticCode, reason: String) -> Self {
        .init(code, "cannot read \(path.map(Diagnostic.quote) ?? "the file"): \(reason)")
    }

    /// A file rejected before, found again with the same bytes and not read again: its
    /// first error then (`message`, already made safe), with its code.
    static func stillRejected(
        _ code: DiagnosticCode, since: String, message: String, errorCount: Int
    ) -> Self {
        .init(
            code,
            "still rejected since \(Diagnostic.sanitized(since)) (\(errorCount.counted("error")), not read again until the file changes): \(message)"
        )
    }

    /// A folder's profile that cannot be used; `problem` names the key and what is wrong.
    static func profileInvalid(_ problem: String, file: String) -> Self {
        .init(
            .profileInvalid,
            "cannot read '\(Diagnostic.sanitized(file))' with this folder profile: \(Diagnostic.sanitized(problem))"
        )
    }
}

// MARK: - Encodings

extension DiagnosticMessage {
    static let nulByte = Self(.encodingNUL, "NUL byte in text")

    static let invalidUTF8 = Self(.encodingInvalidUTF8, "invalid UTF-8 byte sequence")

    static func invalidBytes(in encoding: TextEncoding) -> Self {
        .init(.encodingInvalid, "byte sequence that is not valid \(encoding.rawValue)")
    }
}

// MARK: - Formats not read

extension DiagnosticMessage {
    static func formatUnsupported(_ format: UnsupportedFormat) -> Self {
        .init(
            .formatUnsupported,
            "the file is \(format.rawValue), a format statements does not read; export the account as CSV, OFX, camt.053 or MT940 instead"
        )
    }

    /// A file that holds no statement; `reason` says what it holds instead.
    static func notStatement(_ reason: String) -> Self {
        .init(.fileNotStatement, "the file is not a bank statement: \(reason)")
    }
}

// MARK: - Sniffing

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

    static func assumedCurrency(_ currency: Currency) -> Self {
        .init(
            .dialectAssumed,
            "no currency column, and neither the header nor the preamble names a currency; assumed \(currency.code)"
        )
    }
}

// MARK: - CSV records and columns

extension DiagnosticMessage {
    static func fieldCount(_ count: Int, header: Int) -> Self {
        .init(.csvFieldCount, "row has \(count.counted("field")), the header has \(header)")
    }

    static let unterminatedQuote = Self(
        .csvUnterminatedQuote, "quoted field is never closed: the file ends inside it")

    static let strayQuote = Self(
        .csvStrayQuote,
        "quote inside an unquoted field or after a closing quote; quote the whole field and double inner quotes"
    )

    static func recordTooLong(limit: Int) -> Self {
        .init(
            .csvRecordTooLong,
            "record is longer than \(limit.counted("byte")); reading stopped here")
    }

    static func headerLacks(_ names: [String]) -> Self {
        .init(
            .columnMissing,
            "the header lacks required \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func headerLacksProfileColumns(_ names: [String]) -> Self {
        .init(
            .columnMissing,
            "the header lacks the profile's \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func firstRowLacksProfileColumns(_ names: [String], fieldCount: Int) -> Self {
        .init(
            .columnMissing,
            "the first row has \(fieldCount.counted("field")); the profile maps \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func columnTwice(_ name: String) -> Self {
        .init(.columnDuplicate, "column \(Diagnostic.quote(name)) appears twice in the header")
    }

    static func profileColumnAmbiguous(_ name: String, columns: [Int], field: String) -> Self {
        .init(
            .columnDuplicate,
            "the profile's column \(Diagnostic.quote(name)) is the name of columns \(columns.map(String.init).joined(separator: " and ")); map \(field) to one of them by number"
        )
    }

    /// Unknown columns: a few `names` (quoted), and how many `more` there are.
    static func ignoringColumns(_ names: [String], more: Int) -> Self {
        .init(
            .columnUnknown,
            "ignoring unknown \(names.count + more == 1 ? "column" : "columns") \(names.joined(separator: ", "))\(more > 0 ? " and \(more) more" : "")"
        )
    }
}

// MARK: - JSON structure

extension DiagnosticMessage {
    /// A syntax error; the JSON reader words each one (`expected ':' after an object key`).
    static func jsonSyntax(_ message: String, isTooDeep: Bool) -> Self {
        .init(isTooDeep ? .jsonTooDeep : .jsonSyntax, message)
    }

    /// A value of the wrong kind: `expected` is "an object", "a string or a number", …
    static func jsonType(_ path: String, expected: String, found: String) -> Self {
        .init(.jsonType, "\(path) must be \(expected), not \(found)")
    }

    static func keyTwice(_ key: String, in path: String) -> Self {
        .init(.jsonDuplicateKey, "key \(Diagnostic.quote(key)) appears twice in \(path)")
    }

    /// An account given by both `iban` and `id`.
    static func accountGivenTwice(in path: String) -> Self {
        .init(.jsonDuplicateKey, "\(path) has both \"iban\" and \"id\"; give one of them")
    }

    static func keyMissing(_ key: String, in path: String) -> Self {
        .init(.keyMissing, "\(path) lacks required key \"\(key)\"")
    }

    static func ignoringKey(_ key: String, in path: String) -> Self {
        .init(.keyUnknown, "ignoring unknown key \(Diagnostic.quote(key)) in \(path)")
    }
}

// MARK: - Fields

extension DiagnosticMessage {
    /// A required field that is missing, empty or only white space.
    static func required(_ name: String) -> Self {
        .init(.fieldEmpty, "\(name) is required and must not be blank")
    }

    static let debitOrCreditRequired = required("debit or credit")

    static func blankCurrencyWithoutDefault(_ name: String) -> Self {
        .init(
            .fieldEmpty, "\(name) is blank and the profile gives no default (account.currency)")
    }

    /// A preamble or footer position that names no field; `part` is `preamble` or `footer`.
    static func preambleLacksField(_ field: Int, line: Int, for item: String, in part: String)
        -> Self
    {
        .init(.fieldEmpty, "the \(part) has no field \(field) on line \(line) for \(item)")
    }

    /// A value the model refused: `name` and the quoted `value`, then why.
    private static func invalid(
        _ code: DiagnosticCode, _ name: String, _ value: String, _ reason: String
    )
        -> Self
    {
        .init(code, "\(name) \(value): \(reason)")
    }

    /// A date that is not a day; `format` is a dialect's layout, `nil` for ISO 8601.
    static func date(_ name: String, _ value: String, _ error: DayError, format: DateFormat?)
        -> Self
    {
        switch (error, format) {
        case (.malformed, let format?):
            invalid(.dateFormat, name, value, "is not a date in \(format) form")
        case (.malformed, nil):
            invalid(.dateFormat, name, value, "is not a date in YYYY-MM-DD form")
        case (.invalid, _): invalid(.dateInvalid, name, value, "is not a day of the calendar")
        }
    }

    /// An amount that cannot be read; `example` is a dialect's layout, `nil` for the canonical.
    static func amount(
        _ name: String, _ value: String, _ error: AmountError, currency: Currency,
        example: String?
    ) -> Self {
        switch error {
        case .empty: required(name)
        case .malformed:
            invalid(
                .amountFormat, name, value,
                "is not \(example.map { "an amount like \($0)" } ?? "a decimal number like -1234.56")"
            )
        case .grouping:
            invalid(
                .amountFormat, name, value,
                "has thousands separators that do not split the digits into groups of three")
        case .tooManyDecimals(let allowed):
            invalid(
                .amountPrecision, name, value,
                "\(currency.code) has \(allowed == 0 ? "no decimal places" : allowed.counted("decimal place"))"
            )
        case .overflow:
            invalid(.amountOverflow, name, value, "exceeds the range of a 64-bit amount")
        case .currencyMismatch(let marker):
            invalid(
                .currencyConflict, name, value,
                "is marked \(Diagnostic.quote(marker)), but the row's currency is \(currency.code)")
        }
    }

    /// A conversion rate that is not a positive decimal number.
    static func rateFormat(_ name: String, _ value: String) -> Self {
        invalid(.amountFormat, name, value, "is not a positive decimal rate like 1.0834")
    }

    static func iban(_ name: String, _ value: String, _ error: IBANError) -> Self {
        let code: DiagnosticCode =
            switch error {
            case .illegalCharacter: .ibanCharacters
            case .unknownCountry: .ibanCountry
            case .wrongLength: .ibanLength
            case .invalidStructure: .ibanStructure
            case .checksumMismatch: .ibanChecksum
            }
        return invalid(code, name, value, error.description)
    }

    /// An account id that is neither a valid IBAN nor a valid id of another scheme.
    /// An account column's text that the profile's `accounts` does not map.
    static func unmappedAccount(_ name: String, _ value: String, known: [String]) -> Self {
        invalid(
            .accountID, name, value,
            "is not among the profile's accounts (\(known.map { Diagnostic.quote($0) }.joined(separator: ", ")))"
        )
    }

    package static func accountID(_ name: String, _ value: String, _ error: AccountIDParseError)
        -> Self
    {
        switch error {
        case .iban(let error): iban(name, value, error)
        case .accountID(.unknownScheme(let scheme)):
            invalid(
                .accountID, name, value,
                "scheme \(Diagnostic.quote(scheme)) is not one of \(AccountID.Scheme.allCases.map(\.rawValue).joined(separator: ", ")); without a scheme, an IBAN"
            )
        case .accountID(.malformed(let scheme)):
            invalid(.accountID, name, value, "a \(scheme.rawValue) id is \(scheme.form)")
        case .accountID(.routingCheckDigit):
            invalid(.accountID, name, value, "the routing number's check digit is wrong")
        case .accountID(.pocket):
            invalid(
                .accountID, name, value,
                "a pocket of an account is the account's id, @ and an ISO 4217 currency code, 40 characters at most"
            )
        }
    }

    static func nationalCheck(_ name: String, _ value: String) -> Self {
        invalid(
            .ibanNationalCheck, name, value,
            "national check digits inside the account number are wrong")
    }

    static func currency(_ name: String, _ value: String) -> Self {
        invalid(.currencyUnknown, name, value, "is not an active ISO 4217 currency code")
    }

    static func accountKind(_ name: String, _ value: String) -> Self {
        invalid(.accountKind, name, value, "must be checking, savings, investment or credit-card")
    }
}

// MARK: - Amounts, currencies and balances

extension DiagnosticMessage {
    static func indicator(_ value: String, allowed: [String]) -> Self {
        invalid(
            .amountSign, "indicator", value,
            "must be one of \(allowed.map { Diagnostic.quote($0) }.joined(separator: ", "))")
    }

    static let debitAndCredit = Self(
        .amountSign, "both debit and credit hold an amount; one must be empty or zero")

    static let negativeCredit = Self(
        .amountSign, "amount is negative but the indicator says credit; the two disagree")

    static let sumOverflow = Self(.amountOverflow, "\(MoneyError.overflow)")

    static func balanceOutOfRange(account: AccountID) -> Self {
        .init(
            .amountOverflow,
            "importing this amount could take the balance of account \(account.text) beyond ±9,223,372,036,854,775,807 minor units; the file is rejected"
        )
    }

    static func notAccountCurrency(_ found: Currency, of currencies: [Currency]) -> Self {
        .init(
            .currencyConflict,
            "currency \(found.code) is not one of the account's currencies, \(currencies.map(\.code).joined(separator: ", "))"
        )
    }

    /// A row's currency that is not its account's, as the file itself gives the account.
    static func rowCurrency(
        _ found: Currency, account: AccountID, accountCurrency: Currency, line: Int
    )
        -> Self
    {
        .init(
            .currencyConflict,
            "currency \(found.code) differs from \(accountCurrency.code), the currency of account \(account.text) on line \(line); an account of several currencies needs them in its profile's account.currencies"
        )
    }

    static func rowCurrency(_ name: String, _ value: String, accountCurrency: Currency) -> Self {
        .init(
            .currencyConflict,
            "\(name) \(value) differs from the account's currency \(accountCurrency.code)")
    }

    static func ledgerCurrency(account: AccountID, ledger: Currency, file: Currency) -> Self {
        .init(
            .currencyConflict,
            "account \(account.text) is kept in \(ledger.code) in the ledger; this file has it in \(file.code)"
        )
    }

    /// A balance that breaks the chain; `name` is the balance's field.
    static func openingAfterClosing(_ opening: Money, previous: Money) -> Self {
        .init(
            .balanceRunning,
            "opening balance \(opening.decimalText) differs from the closing balance of the account's statement before, \(previous.decimalText)"
        )
    }

    /// A balance a statement stated that the ledger does not hold after an import, or (not
    /// `inLedger`) that the file's own rows and earlier statements do not give.
    package static func balanceAssertion(
        _ failure: BalanceCheck.Failure, account: AccountID, inLedger: Bool = true
    ) -> Self {
        let bank = failure.assertion.balance
        let code = bank.currency.code
        let day = failure.assertion.day
        let period =
            if let holding = failure.lastHolding {
                "\(Day(ordinal: holding.ordinal + 1).isoText) … \(day.isoText)"
            } else {
                "up to \(day.isoText)"
            }
        let difference = failure.difference
        let more = difference.minorUnits > 0 ? "more" : "less"
        let magnitude = difference.minorUnits < 0 ? difference.negated : difference
        let repeats =
            failure.repeats > 0
            ? "; \(failure.repeats.counted("later balance")) \(failure.repeats == 1 ? "differs" : "differ") by as much"
            : ""
        return .init(
            .balanceAssertion,
            "the bank states \(bank.decimalText) \(code) for \(account.text) at the end of \(day.isoText); \(inLedger ? "the ledger has" : "the file's statements give") \(failure.ledger.decimalText) \(code), \(magnitude.decimalText) \(code) \(more): a statement covering \(period) may be missing, or a booking was imported twice\(repeats)"
        )
    }

    /// A file rejected under `--strict` for leaving an account out of balance with a balance
    /// another file states.
    static func leavesOutOfBalance(account: AccountID, _ state: OutOfBalance) -> Self {
        .init(
            .balanceAssertion,
            "the file leaves \(account.text) out of balance with its bank since \(state.since.isoText), by \(state.difference.decimalText) \(state.difference.currency.code) (--strict)"
        )
    }

    static func openingBalance(_ declared: Money, implied: Money) -> Self {
        .init(
            .balanceRunning,
            "preamble openingBalance \(declared.decimalText) differs from the balance before the first row, \(implied.decimalText) (its running balance less its amount)"
        )
    }

    static func balance(_ name: String, _ error: ReconciliationError) -> Self {
        switch error {
        case .arithmetic(_, .overflow): sumOverflow
        case .arithmetic(_, .currencyMismatch(let a, let b)):
            .init(.currencyConflict, "\(name): cannot combine \(a) with \(b)")
        case .closingBalanceMismatch(let declared, let computed):
            .init(
                .balanceClosing,
                "closing balance \(declared.decimalText) differs from opening balance plus transactions, \(computed.decimalText)"
            )
        case .runningBalanceMismatch(let declared, let computed):
            .init(
                .balanceRunning,
                "\(name) \(declared.decimalText) differs from the previous balance plus this amount, \(computed.decimalText); the balance chain breaks here"
            )
        }
    }

    static func transactionID(
        _ id: String, earlierLine: Int, earlier: Money, earlierDay: Day, here: Money, day: Day
    ) -> Self {
        .init(
            .transactionIDConflict,
            "transaction id \(Diagnostic.quote(id)) is also on line \(earlierLine), for \(earlier.decimalText) \(earlier.currency.code) on \(earlierDay); here \(here.decimalText) \(here.currency.code) on \(day). If the bank does not keep this column unique, map it as reference instead"
        )
    }

    static func ledgerTransactionID(account: AccountID, month: Month) -> Self {
        .init(
            .transactionIDConflict,
            "the transaction id of this row is already in the ledger (account \(account.text), \(month)) with another amount or currency; a transaction id names one booking"
        )
    }
}

// MARK: - Banks' own formats

extension DiagnosticMessage {
    // The readers' reasons may name input (a tag, an element): escaped for a terminal.

    static func mt940Syntax(_ reason: String) -> Self {
        .init(.mt940Syntax, Diagnostic.sanitized(reason))
    }

    /// A `:61:` transaction type identification code (`1!a3!c`) outside SWIFT's characters.
    static func mt940TypeCode(_ code: String) -> Self {
        .init(
            .mt940TypeCode,
            ":61: transaction type \(code): not N, F or S and three capital letters or digits, such as NTRF"
        )
    }

    /// A mandatory field or element that a statement lacks; `before` names what needed it.
    static func elementMissing(_ element: String, before: String) -> Self {
        .init(.elementMissing, "\(element) must come before \(before)")
    }

    /// A mandatory field or element that a statement, an entry or a transaction lacks.
    static func elementMissing(_ element: String, in container: String = "the statement")
        -> Self
    {
        .init(.elementMissing, "\(container) has no \(element)")
    }

    /// A single-valued element given again in its parent.
    static func elementDuplicate(_ element: String, in parent: String) -> Self {
        .init(
            .elementDuplicate,
            "<\(element)> appears twice in <\(parent)>; it has one value, and neither is taken")
    }

    /// Two values of one thing that disagree, such as `TxDtls/Amt` and `AmtDtls/TxAmt/Amt`.
    static func elementsDisagree(_ first: String, _ second: String) -> Self {
        .init(.elementDuplicate, "\(first) and \(second) disagree; they give one value")
    }

    /// An element where the format does not allow it, such as an entry inside an entry.
    static func elementMisplaced(_ element: String, in parent: String, allowed: String) -> Self {
        .init(
            .elementMisplaced,
            "<\(element)> inside \(parent): it belongs directly in \(allowed)")
    }

    /// A counterparty's account that is not a valid IBAN, in a booking the bank made: the row
    /// is kept, without it.
    static func counterpartyIBAN(_ name: String, _ value: String, _ error: IBANError) -> Self {
        invalid(
            .counterpartyIBAN, name, value,
            "\(error.description); the bank booked the payment, so the row is kept without the counterparty's IBAN"
        )
    }

    /// Text over a reader's limit; `reason` names the text and the limit.
    static func textTooLong(_ reason: String) -> Self {
        .init(.textTooLong, Diagnostic.sanitized(reason))
    }

    /// A value kept for a row (a name, a description, a reference) longer than the limit.
    static func textTooLong(_ name: String, length: Int, limit: Int) -> Self {
        .init(
            .textTooLong,
            "\(name) is \(length.counted("byte")) long; a value kept for a row has at most \(limit.groupedText)"
        )
    }

    static func xmlSyntax(_ reason: String) -> Self {
        .init(.xmlSyntax, Diagnostic.sanitized(reason))
    }

    static func ofxSyntax(_ reason: String) -> Self {
        .init(.ofxSyntax, Diagnostic.sanitized(reason))
    }

    static func camtIndicator(_ element: String, _ found: String?) -> Self {
        .init(
            .elementMissing,
            found.map { "<CdtDbtInd> of \(element) is \(Diagnostic.quote($0)), not CRDT or DBIT" }
                ?? "\(element) has no <CdtDbtInd> (CRDT or DBIT)")
    }

    static func batchSum(_ sum: Money, entry: Money) -> Self {
        .init(
            .balanceClosing,
            "the transactions of this batch entry sum to \(sum.decimalText), the entry is \(entry.decimalText)"
        )
    }

    static func noStatement(format: String, first: String) -> Self {
        .init(.fileNoTransactions, "the \(format) file holds no statement (\(first))")
    }
}
