// The message catalogue: amounts, currencies and balances.

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
