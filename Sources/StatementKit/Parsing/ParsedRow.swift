/// One valid transaction read from a file, with its account and where it stands.
package struct ParsedRow: Sendable {
    /// The account the transaction belongs to, as the file describes it.
    package let account: Account
    /// The transaction.
    package let transaction: Transaction
    /// The 1-based line on which the row starts.
    package let line: Int
}

/// What a parser found in one file besides its rows.
package struct ParseSummary: Hashable, Sendable {
    /// How many transaction rows the file holds, valid or not.
    package var rowCount = 0
    /// The opening balances by account: declared, or implied by a first row's running balance.
    package var openingBalances: [IBAN: Money] = [:]
    /// Whether a file streamed as canonical UTF-8 CSV turned out to be Windows-1252 text: its
    /// findings are void, and it is read again through the sniffer (`sniffing: true`).
    package var needsSniffing = false
}

/// The diagnostic code and reason of each field-level error of the model.
extension IBANError {
    var code: DiagnosticCode {
        switch self {
        case .illegalCharacter: .ibanCharacters
        case .unknownCountry: .ibanCountry
        case .wrongLength: .ibanLength
        case .invalidStructure: .ibanStructure
        case .checksumMismatch: .ibanChecksum
        }
    }
}

extension AmountError {
    var code: DiagnosticCode {
        switch self {
        case .empty: .fieldEmpty
        case .malformed, .grouping: .amountFormat
        case .tooManyDecimals: .amountPrecision
        case .overflow: .amountOverflow
        }
    }

    /// The reason, naming the currency where its precision matters.
    func reason(currency: Currency) -> String {
        guard case .tooManyDecimals = self else { return description }
        return "\(currency.code) \(description)"
    }
}

extension DayError {
    var code: DiagnosticCode {
        switch self {
        case .malformed: .dateFormat
        case .invalid: .dateInvalid
        }
    }
}

extension ReconciliationError {
    var code: DiagnosticCode {
        switch self {
        case .arithmetic(_, .overflow): .amountOverflow
        case .arithmetic(_, .currencyMismatch): .currencyConflict
        case .closingBalanceMismatch: .balanceClosing
        case .runningBalanceMismatch: .balanceRunning
        }
    }
}

/// The reason a national check failure gets in a message.
let nationalCheckReason = "national check digits inside the account number are wrong"
