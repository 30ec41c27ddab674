// The message catalogue: fields missing, or values the model refused.

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
    static func invalid(
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
