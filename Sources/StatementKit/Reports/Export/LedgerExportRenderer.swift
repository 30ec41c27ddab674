/// Writes the ledger as a plain-text accounting journal, one account-month at a time: an
/// hledger journal, a ledger-cli journal or a beancount file.
///
/// Each account gets an account declaration (beancount: an `open` directive) and an opening
/// entry from `Equity:Opening-Balances` at the end of the day before its first month; each
/// transaction one entry with the beneficiary as payee and the description (else the
/// reference) as narration, balanced against `Expenses:Unknown` (a debit) or
/// `Income:Unknown` (a credit); each balance the bank stated that the ledger holds a balance
/// assertion (hledger and ledger: `= BALANCE` on a posting of zero dated the day it holds at
/// the end of; beancount: a `balance` directive dated the day after, as beancount checks
/// balances at the start of a day, with a tolerance of zero). A stated balance the ledger does not hold is written as
/// a comment, so that the tools accept the file. Amounts are written from integer minor units
/// with the currency's digits.
package struct LedgerExportRenderer: Sendable {
    /// The journal formats of `statements export`.
    package enum Format: String, CaseIterable, Sendable {
        case hledger, ledger, beancount
    }

    /// The counter account of debits.
    package static let expenses = "Expenses:Unknown"
    /// The counter account of credits.
    package static let income = "Income:Unknown"
    /// The counter account of opening balances.
    package static let openingBalances = "Equity:Opening-Balances"

    /// What the export wrote about the bank's balances.
    package struct Tally: Hashable, Sendable {
        /// The stated balances written as assertions.
        package var asserted = 0
        /// The stated balances the ledger does not hold, written as comments.
        package var disagreeing = 0

        package init() {}
    }

    package let format: Format

    /// Creates a renderer for a format.
    package init(format: Format) {
        self.format = format
    }

    private var indent: StaticString { format == .beancount ? "  " : "    " }

    /// What a payee must not hold in a journal: `;` begins an hledger comment, `|` ends the
    /// payee.
    private static let payeeReplacements: [UInt8: String] = [
        UInt8(ascii: ";"): ",", UInt8(ascii: "|"): "/",
    ]
    /// What a note must not hold in a journal.
    private static let noteReplacements: [UInt8: String] = [UInt8(ascii: ";"): ","]

    /// Appends the file's first lines: a comment saying what it is, and for beancount the
    /// `open` directives of the counter accounts, dated with the earliest opening entry, the
    /// day before `firstMonth` (`nil` for an empty export).
    package func appendPrelude(firstMonth: Month?, to out: inout [UInt8]) {
        switch format {
        case .hledger, .ledger:
            out.append("; The ledger of statements, as a")
            out.append(format == .hledger ? "n hledger" : " ledger-cli")
            out.append(
                utf8:
                    " journal: a bank account per account, counter postings to\n; \(Self.expenses) and \(Self.income), balance assertions where the bank stated a balance.\n"
            )
        case .beancount:
            out.append(
                utf8:
                    "; The ledger of statements, as a beancount file: a bank account per account,\n; counter postings to \(Self.expenses) and \(Self.income), balance directives where the bank\n; stated a balance.\n"
            )
            guard let firstDay = firstMonth?.dayBefore else { return }
            for name in [Self.openingBalances, Self.expenses, Self.income] {
                out.append("\n")
                firstDay.appendISOText(to: &out)
                out.append(" open ")
                out.append(utf8: name)
            }
            out.append("\n")
        }
    }

    /// Appends an account-month: on the account's first month its declaration and opening
    /// entry, then its transactions in day order, each stated balance after the last
    /// transaction of its day.
    package func append(_ month: AccountMonth, to out: inout [UInt8], tally: inout Tally) {
        let statement = month.statement
        let name = statement.account.exportName
        if month.isFirst { appendOpening(month, name: name, to: &out) }
        var balance = statement.openingBalance
        var next = 0
        let assertions = month.assertions
        let entries = statement.entries
        for index in entries.indices {
            let date = entries[index].transaction.date
            while next < assertions.count && assertions[next].day < date {
                appendAssertion(assertions[next], ledger: balance, name: name, &out, &tally)
                next += 1
            }
            appendTransaction(entries[index].transaction, name: name, to: &out)
            balance = entries[index].balance
        }
        while next < assertions.count {
            appendAssertion(assertions[next], ledger: balance, name: name, &out, &tally)
            next += 1
        }
    }

    /// The account's declaration and its opening entry.
    private func appendOpening(_ month: AccountMonth, name: String, to out: inout [UInt8]) {
        let account = month.statement.account
        let day = month.openingDay
        let about = [
            account.id.grouped,
            account.name.flatMap { $0 == account.id.text ? nil : $0.exportLine() },
            account.kind.rawValue,
            account.currency.code,
        ].compactMap { $0 }.joined(separator: " · ")
        out.append("\n")
        switch format {
        case .hledger, .ledger:
            out.append("; ")
            out.append(utf8: about)
            out.append("\naccount ")
            out.append(utf8: name)
            out.append("\n\n")
            day.appendISOText(to: &out)
            out.append(" * Opening balance\n")
        case .beancount:
            day.appendISOText(to: &out)
            out.append(" open ")
            out.append(utf8: name)
            out.append(" ")
            out.append(utf8: account.currency.code)
            appendMetadata("account", account.id.text, to: &out)
            if let accountName = account.name {
                appendMetadata("name", accountName, to: &out)
            }
            appendMetadata("kind", account.kind.rawValue, to: &out)
            out.append("\n\n")
            day.appendISOText(to: &out)
            out.append(" * \"Opening balance\"\n")
        }
        let opening = month.statement.openingBalance
        appendPosting(name, opening, to: &out)
        appendPosting(Self.openingBalances, opening.negated, to: &out)
    }

    /// One transaction's entry.
    private func appendTransaction(_ transaction: Transaction, name: String, to out: inout [UInt8])
    {
        out.append("\n")
        transaction.date.appendISOText(to: &out)
        let narration = transaction.description ?? transaction.reference ?? ""
        switch format {
        case .hledger, .ledger:
            out.append(" *")
            // A description starting with `(` would be read as a code: an empty code first.
            if transaction.beneficiary.drop(while: \.isWhitespace).first == "(" {
                out.append(" ()")
            }
            out.append(" ")
            transaction.beneficiary.appendExportLine(replacing: Self.payeeReplacements, to: &out)
            if !narration.isEmpty {
                let start = out.count
                out.append(" | ")
                narration.appendExportLine(replacing: Self.noteReplacements, to: &out)
                // A narration of spaces only: no note.
                if out.count == start + 3 { out.removeLast(3) }
            }
        case .beancount:
            out.append(" * ")
            transaction.beneficiary.appendBeancountString(to: &out)
            out.append(" ")
            narration.appendBeancountString(to: &out)
        }
        if let reference = transaction.reference {
            appendMetadata("reference", reference, to: &out)
        }
        if let id = transaction.transactionID { appendMetadata("transaction_id", id, to: &out) }
        if let iban = transaction.beneficiaryIBAN {
            appendMetadata(
                "counterparty", iban.electronic, to: &out)
        }
        out.append("\n")
        let amount = transaction.amount
        appendPosting(name, amount, to: &out)
        appendPosting(amount.minorUnits < 0 ? Self.expenses : Self.income, amount.negated, to: &out)
    }

    /// A balance the bank stated: an assertion when the ledger holds it, else a comment.
    private func appendAssertion(
        _ assertion: BalanceAssertion, ledger: Money, name: String, _ out: inout [UInt8],
        _ tally: inout Tally
    ) {
        let holds = ledger == assertion.balance
        let source = "\(assertion.source):\(assertion.line)"
        let day = format == .beancount ? Day(ordinal: assertion.day.ordinal + 1) : assertion.day
        out.append("\n")
        guard holds else {
            tally.disagreeing += 1
            out.append("; ")
            day.appendISOText(to: &out)
            out.append(format == .beancount ? " balance " : " bank balance ")
            out.append(utf8: name)
            out.append(" ")
            appendAmount(assertion.balance, to: &out)
            out.append(" (")
            out.append(utf8: source.exportLine())
            out.append(") not asserted: the ledger has ")
            appendAmount(ledger, to: &out)
            out.append("\n")
            return
        }
        tally.asserted += 1
        day.appendISOText(to: &out)
        switch format {
        case .hledger, .ledger:
            out.append(" * Bank balance")
            appendMetadata("source", source, to: &out)
            out.append("\n")
            out.append(indent)
            out.append(utf8: name)
            out.append("  ")
            appendAmount(.zero(assertion.balance.currency), to: &out)
            out.append(" = ")
            appendAmount(assertion.balance, to: &out)
            out.append("\n")
        case .beancount:
            out.append(" balance ")
            out.append(utf8: name)
            out.append("  ")
            // Exact: beancount's inferred tolerance lets a balance be a minor unit off.
            assertion.balance.appendDecimalText(to: &out)
            out.append(" ~ 0 ")
            out.append(utf8: assertion.balance.currency.code)
            appendMetadata("source", source, to: &out)
            out.append("\n")
        }
    }

    /// A metadata line under an entry: `; key: value` (hledger and ledger tags), or
    /// `key: "value"` (beancount).
    private func appendMetadata(_ key: StaticString, _ value: String, to out: inout [UInt8]) {
        out.append("\n")
        out.append(indent)
        switch format {
        case .hledger, .ledger:
            out.append("; ")
            out.append(key)
            out.append(": ")
            value.appendExportLine(to: &out)
        case .beancount:
            out.append(key)
            out.append(": ")
            value.appendBeancountString(to: &out)
        }
    }

    /// A posting line, its amount after two spaces.
    private func appendPosting(_ name: String, _ amount: Money, to out: inout [UInt8]) {
        out.append(indent)
        out.append(utf8: name)
        out.append("  ")
        appendAmount(amount, to: &out)
        out.append("\n")
    }

    /// An amount: a plain decimal with the currency's digits and its code, `-12.34 EUR`.
    private func appendAmount(_ amount: Money, to out: inout [UInt8]) {
        amount.appendDecimalText(to: &out)
        out.append(" ")
        out.append(utf8: amount.currency.code)
    }
}
