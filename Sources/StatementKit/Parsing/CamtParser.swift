import Foundation

/// Reads ISO 20022 bank-to-customer statements into validated transactions, streaming:
/// camt.053 (end-of-day statements), camt.052 (intraday reports) and camt.054 (debit and
/// credit notifications), message versions .001.02 to .001.13 (the element names are the
/// same in all; namespaces are ignored).
///
/// Per statement (`Stmt`, `Rpt` or `Ntfctn`, several per file): the account from
/// `Acct/Id/IBAN` or `Acct/Id/Othr/Id` (kept as `name:`), its currency from `Acct/Ccy`, the
/// opening balance (`OPBD`, or `PRCD`) and the closing one (`CLBD`), which the booked entries
/// must make. Per entry (`Ntry`): `Amt@Ccy`, `CdtDbtInd`, `RvslInd` (a reversal: the
/// indicator already gives the direction), `Sts` (plain or `Sts/Cd`: only `BOOK` is a
/// booking; `PDNG`, `INFO` and `FUTR` entries are counted as not booked and left out), the
/// booking date (`BookgDt/Dt` or the date of `BookgDt/DtTm`), `AcctSvcrRef` as the
/// transaction id. An entry whose `NtryDtls` hold several `TxDtls` with amounts of their own
/// (a batch) becomes one transaction per `TxDtls`, whose amounts must sum to the entry's;
/// otherwise the entry is one transaction, described by its only `TxDtls`: the counterparty
/// (`RltdPties`: the creditor of a debit, the debtor of a credit, `Nm` or `Pty/Nm`, and its
/// account's IBAN), the remittance information (`Ustrd`, joined; the structured creditor
/// reference `Strd/CdtrRefInf/Ref`, else `EndToEndId`, as the reference). All entries of a
/// camt.052 are intraday and left out as not booked, as an MT942's are.
package struct CamtParser: Sendable {
    package init() {}

    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = XMLReader(source: source)
        var state = State(diagnostics: DiagnosticCollector(file: ""))
        swap(&state.diagnostics, &diagnostics)
        defer { swap(&state.diagnostics, &diagnostics) }
        do throws(XMLSyntaxError) {
            while let event = try reader.next() {
                state.handle(event, line: reader.eventLine, column: reader.eventColumn, onRow)
            }
        } catch {
            state.diagnostics.report(
                .xmlSyntax(error.message), line: error.line, column: error.column)
            return state.summary
        }
        if !state.sawStatement {
            state.diagnostics.report(
                .noStatement(format: "camt", first: "<Stmt>, <Rpt> or <Ntfctn>"), line: 1,
                column: 1)
        }
        return state.summary
    }
}

extension CamtParser {
    /// One `TxDtls` of an entry.
    struct Details {
        var amount: PlacedText?
        var currency: String?
        var indicator: String?
        var debtorName: String?
        var creditorName: String?
        var debtorIBAN: String?
        var creditorIBAN: String?
        var unstructured: [String] = []
        var creditorReference: String?
        var endToEndID: String?
        var reference: String?
        var additional: String?
    }

    struct Entry {
        let line: Int
        var amount: PlacedText?
        var currency: String?
        var indicator: PlacedText?
        var status: String?
        var bookingDate: PlacedText?
        var serviceReference: String?
        var additional: String?
        var details: [Details] = []
    }

    struct Balance {
        var type: String?
        var amount: PlacedText?
        var currency: String?
        var indicator: String?
        let line: Int
    }

    struct Statement {
        let line: Int
        let column: Int
        let isInterim: Bool
        var iban: PlacedText?
        var otherID: PlacedText?
        var currency: PlacedText?
        var account: Account?
        var accountChecked = false
        var balances: [Balance] = []
        var total: Int64 = 0
        var isValid = true
    }

    struct State {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        /// The local names of the open elements.
        var path: [String] = []
        var text = ""
        var textLine = 0
        var textColumn = 0
        var sawStatement = false
        var isReport = false
        var statement: Statement?
        var entry: Entry?
        var details: Details?
        var balance: Balance?
        /// The ids of the statement being read, to find one given to two of its bookings.
        /// Per statement, so that memory follows the largest statement, not the file; the
        /// same id in two statements of a file is the import's to judge (the ledger finds an
        /// id already there with another amount).
        var transactionIDs = TransactionIDChecker()

        init(diagnostics: DiagnosticCollector) {
            self.diagnostics = diagnostics
        }

        mutating func handle<S>(
            _ event: XMLReader<S>.Event, line: Int, column: Int, _ onRow: (ParsedRow) -> Void
        ) {
            switch event {
            case .start(let name, let attributes, _):
                start(name, attributes.map { ($0.name, $0.value) }, line: line, column: column)
                path.append(name)
                text = ""
                (textLine, textColumn) = (line, column)
            case .text(let content):
                if text.isEmpty { (textLine, textColumn) = (line, column) }
                text += content
            case .end(let name):
                let value = XMLReader<S>.trimmed(Array(text.utf8)[...])
                end(name, PlacedText(text: value, line: textLine, column: textColumn), onRow)
                path.removeLast()
                text = ""
            }
        }

        /// Whether the open elements end with `suffix` (the element just started or ended
        /// being the last).
        func within(_ parent: String, _ name: String) -> Bool {
            let count = path.count
            return count >= 2 && path[count - 1] == name && path[count - 2] == parent
        }

        func within(_ grandparent: String, _ parent: String, _ name: String) -> Bool {
            let count = path.count
            return count >= 3 && path[count - 1] == name && path[count - 2] == parent
                && path[count - 3] == grandparent
        }

        func within(_ first: String, _ second: String, _ third: String, _ name: String) -> Bool {
            let count = path.count
            return count >= 4 && path[count - 1] == name && path[count - 2] == third
                && path[count - 3] == second && path[count - 4] == first
        }

        var attributeCurrency: String?

        mutating func start(
            _ name: String, _ attributes: [(String, String)], line: Int, column: Int
        ) {
            switch name {
            case "BkToCstmrAcctRpt":
                isReport = true
            case "Stmt", "Rpt", "Ntfctn":
                guard
                    path.last == "BkToCstmrStmt" || path.last == "BkToCstmrAcctRpt"
                        || path.last == "BkToCstmrDbtCdtNtfctn"
                else { break }
                sawStatement = true
                statement = Statement(line: line, column: column, isInterim: isReport)
                transactionIDs = TransactionIDChecker()
            case "Bal" where statement != nil && path.last != "Ntry":
                balance = Balance(line: line)
            case "Ntry" where statement != nil:
                entry = Entry(line: line)
            case "TxDtls" where entry != nil:
                details = Details()
            case "Amt":
                attributeCurrency = attributes.first { $0.0 == "Ccy" }?.1
            default:
                break
            }
        }

        mutating func end(_ name: String, _ value: PlacedText, _ onRow: (ParsedRow) -> Void) {
            switch name {
            case "Stmt", "Rpt", "Ntfctn":
                guard statement != nil, path.count >= 2,
                    ["BkToCstmrStmt", "BkToCstmrAcctRpt", "BkToCstmrDbtCdtNtfctn"].contains(
                        path[path.count - 2])
                else { return }
                endStatement()
                return
            default:
                break
            }
            if details != nil {
                endInDetails(name, value)
            } else if entry != nil {
                endInEntry(name, value, onRow)
            } else if balance != nil {
                endInBalance(name, value)
            } else if statement != nil {
                endInStatement(name, value)
            }
        }

        mutating func endInStatement(_ name: String, _ value: PlacedText) {
            guard
                within("Acct", "Id", name) || within("Acct", "Id", "Othr", "Id")
                    || within("Acct", "Ccy")
            else { return }
            switch name {
            case "IBAN": statement!.iban = value
            case "Id" where within("Othr", "Id"): statement!.otherID = value
            case "Ccy": statement!.currency = value
            default: break
            }
        }

        mutating func endInBalance(_ name: String, _ value: PlacedText) {
            switch name {
            case "Cd" where within("Tp", "CdOrPrtry", "Cd"): balance!.type = value.text
            case "Amt" where within("Bal", "Amt"):
                balance!.amount = value
                balance!.currency = attributeCurrency
            case "CdtDbtInd" where within("Bal", "CdtDbtInd"): balance!.indicator = value.text
            case "Bal":
                statement!.balances.append(balance!)
                balance = nil
            default: break
            }
        }

        mutating func endInEntry(_ name: String, _ value: PlacedText, _ onRow: (ParsedRow) -> Void)
        {
            switch name {
            case "Amt" where within("Ntry", "Amt"):
                entry!.amount = value
                entry!.currency = attributeCurrency
            case "CdtDbtInd" where within("Ntry", "CdtDbtInd"): entry!.indicator = value
            case "Sts" where within("Ntry", "Sts") && !value.text.isEmpty:
                entry!.status = value.text
            case "Cd" where within("Ntry", "Sts", "Cd"): entry!.status = value.text
            case "Dt" where within("BookgDt", "Dt"), "DtTm" where within("BookgDt", "DtTm"):
                entry!.bookingDate = value
            case "AcctSvcrRef" where within("Ntry", "AcctSvcrRef"):
                entry!.serviceReference = value.text
            case "AddtlNtryInf" where within("Ntry", "AddtlNtryInf"):
                entry!.additional = value.text
            case "Ntry":
                endEntry(onRow)
                entry = nil
            default: break
            }
        }

        mutating func endInDetails(_ name: String, _ value: PlacedText) {
            switch name {
            case "Amt" where within("TxDtls", "Amt") || within("TxAmt", "Amt"):
                details!.amount = value
                details!.currency = attributeCurrency
            case "CdtDbtInd" where within("TxDtls", "CdtDbtInd"):
                details!.indicator = value.text
            case "Nm" where within("Dbtr", "Nm") || within("Dbtr", "Pty", "Nm"):
                details!.debtorName = value.text
            case "Nm" where within("Cdtr", "Nm") || within("Cdtr", "Pty", "Nm"):
                details!.creditorName = value.text
            case "IBAN" where within("DbtrAcct", "Id", "IBAN"): details!.debtorIBAN = value.text
            case "IBAN" where within("CdtrAcct", "Id", "IBAN"): details!.creditorIBAN = value.text
            case "Ustrd" where within("RmtInf", "Ustrd"):
                if !value.text.isEmpty { details!.unstructured.append(value.text) }
            case "Ref" where within("CdtrRefInf", "Ref"): details!.creditorReference = value.text
            case "EndToEndId" where within("Refs", "EndToEndId"):
                details!.endToEndID = value.text
            case "AcctSvcrRef" where within("Refs", "AcctSvcrRef"):
                details!.reference = value.text
            case "AddtlTxInf" where within("TxDtls", "AddtlTxInf"):
                details!.additional = value.text
            case "TxDtls":
                entry!.details.append(details!)
                details = nil
            default: break
            }
        }

        mutating func report(_ message: DiagnosticMessage, at place: PlacedText) {
            report(message, line: place.line, column: place.column)
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }

        /// The statement's account, checked once, when its first entry or its end needs it.
        mutating func account() -> Account? {
            guard let statement, !statement.accountChecked else { return statement?.account }
            self.statement!.accountChecked = true
            var currency: Currency?
            if let code = statement.currency {
                currency = Currency(code: code.text)
                guard currency != nil else {
                    report(.currency("Acct/Ccy", Diagnostic.quote(code.text)), at: code)
                    return nil
                }
            }
            // Without Acct/Ccy, the currency of the first amount.
            currency =
                currency ?? entry?.currency.flatMap { Currency(code: $0) }
                ?? statement.balances.first?.currency.flatMap { Currency(code: $0) }
            let id: AccountID
            if let iban = statement.iban {
                do throws(IBANError) {
                    id = AccountID(try IBAN(parsing: iban.text))
                } catch {
                    report(.iban("Acct/Id/IBAN", Diagnostic.quote(iban.text), error), at: iban)
                    return nil
                }
            } else if let other = statement.otherID {
                do throws(AccountIDParseError) {
                    id = try AccountID(accountNumber: other.text)
                } catch {
                    report(
                        .accountID("Acct/Id/Othr/Id", Diagnostic.quote(other.text), error),
                        at: other)
                    return nil
                }
            } else {
                report(
                    .elementMissing("<Acct><Id>"), line: statement.line, column: statement.column)
                return nil
            }
            guard let currency else {
                report(
                    .elementMissing("<Acct><Ccy>"), line: statement.line, column: statement.column)
                return nil
            }
            self.statement!.account = Account(
                id: id, name: nil, kind: .checking, currency: currency)
            return self.statement!.account
        }

        /// An amount in a currency, with its sign from a `CRDT`/`DBIT` indicator.
        mutating func money(
            _ amount: PlacedText?, currency code: String?, indicator: String?, account: Account,
            element: String, at fallback: Int
        ) -> Money? {
            guard let amount else {
                report(.elementMissing("<\(element)>", in: "the entry"), line: fallback, column: 1)
                return nil
            }
            guard let code, let currency = Currency(code: code) else {
                report(.currency("\(element)@Ccy", Diagnostic.quote(code ?? "")), at: amount)
                return nil
            }
            guard currency == account.currency else {
                report(
                    .rowCurrency(
                        "\(element)@Ccy", Diagnostic.quote(code), accountCurrency: account.currency),
                    at: amount)
                return nil
            }
            let result = amount.text.parsingUTF8 { bytes in
                Result { () throws(AmountError) in try Money(parsing: bytes, currency: currency) }
            }
            switch result {
            case .success(let money) where money.minorUnits >= 0:
                switch indicator {
                case "DBIT": return money.negated
                case "CRDT": return money
                default:
                    report(.camtIndicator(element, indicator), at: amount)
                    return nil
                }
            case .success:
                report(
                    .amount(
                        element, Diagnostic.quote(amount.text), .malformed, currency: currency,
                        example: nil), at: amount)
            case .failure(let error):
                report(
                    .amount(
                        element, Diagnostic.quote(amount.text), error, currency: currency,
                        example: nil), at: amount)
            }
            return nil
        }

        mutating func endEntry(_ onRow: (ParsedRow) -> Void) {
            guard let entry, statement != nil else { return }
            summary.rowCount += 1
            // The status is mandatory: an entry without one is not taken for a booking.
            guard let status = entry.status else {
                report(.elementMissing("<Sts>", in: "<Ntry>"), line: entry.line, column: 1)
                return
            }
            if statement!.isInterim || status != "BOOK" {
                summary.notBookedCount += 1
                return
            }
            guard let account = account() else { return }
            guard let date = entry.bookingDate else {
                report(.elementMissing("<BookgDt>", in: "<Ntry>"), line: entry.line, column: 1)
                return
            }
            // `DtTm` is the day as written, before its time.
            let day = try? String(date.text.prefix(10)).parsingUTF8 {
                (bytes) throws(DayError) in try Day(parsing: bytes)
            }
            guard let day, date.text.count == 10 || date.text.dropFirst(10).first == "T" else {
                report(
                    .date("BookgDt", Diagnostic.quote(date.text), .malformed, format: nil), at: date
                )
                return
            }
            guard
                let total = money(
                    entry.amount, currency: entry.currency, indicator: entry.indicator?.text,
                    account: account, element: "Amt", at: entry.line)
            else { return }
            // A batch: one transaction per TxDtls with an amount, summing to the entry's.
            let parts: [(Details, Money)]
            if entry.details.count > 1, entry.details.allSatisfy({ $0.amount != nil }) {
                var list: [(Details, Money)] = []
                for part in entry.details {
                    guard
                        let amount = money(
                            part.amount, currency: part.currency,
                            indicator: part.indicator ?? entry.indicator?.text, account: account,
                            element: "TxDtls/Amt", at: entry.line)
                    else { return }
                    list.append((part, amount))
                }
                let sum = list.reduce(Int64(0)) { $0 &+ $1.1.minorUnits }
                guard sum == total.minorUnits else {
                    report(
                        .batchSum(Money(minorUnits: sum, currency: total.currency), entry: total),
                        line: entry.line, column: 1)
                    return
                }
                parts = list
            } else {
                parts = [(entry.details.first ?? Details(), total)]
            }
            for (index, (part, amount)) in parts.enumerated() {
                let (total, overflow) = statement!.total.addingReportingOverflow(amount.minorUnits)
                guard !overflow else {
                    report(.sumOverflow, line: entry.line, column: 1)
                    return
                }
                statement!.total = total
                let isDebit = amount.minorUnits < 0
                let name = isDebit ? part.creditorName : part.debtorName
                let counterpartyIBAN = (isDebit ? part.creditorIBAN : part.debtorIBAN).flatMap {
                    try? IBAN(parsing: $0)
                }
                let description =
                    part.unstructured.isEmpty
                    ? (part.additional ?? entry.additional)
                    : part.unstructured.joined(separator: " ")
                let endToEnd = part.endToEndID.flatMap {
                    $0.uppercased() == "NOTPROVIDED" ? nil : $0
                }
                let id: String? =
                    parts.count > 1
                    ? (part.reference ?? entry.serviceReference.map { "\($0)/\(index + 1)" })
                    : (entry.serviceReference ?? part.reference)
                let transaction = Transaction(
                    date: day, amount: amount,
                    beneficiary: name ?? description ?? entry.additional ?? "(no counterparty)",
                    beneficiaryIBAN: counterpartyIBAN, description: description,
                    reference: part.creditorReference ?? endToEnd, transactionID: id)
                if let conflict = transactionIDs.check(
                    transaction, account: account.id, line: entry.line)
                {
                    report(conflict, line: entry.line, column: 1)
                    continue
                }
                onRow(ParsedRow(account: account, transaction: transaction, line: entry.line))
            }
        }

        mutating func endStatement() {
            defer { statement = nil }
            guard statement != nil, let account = account(), statement!.isValid else { return }
            var opening: Money?
            var closing: (Money, Int)?
            for balance in statement!.balances {
                guard let type = balance.type, ["OPBD", "PRCD", "CLBD"].contains(type) else {
                    continue
                }
                guard
                    let money = money(
                        balance.amount, currency: balance.currency, indicator: balance.indicator,
                        account: account, element: "Bal/Amt", at: balance.line)
                else { return }
                if type == "CLBD" {
                    closing = (money, balance.line)
                } else if opening == nil || type == "OPBD" {
                    opening = money
                }
            }
            if let opening, summary.openingBalances[account.id] == nil {
                summary.openingBalances[account.id] = opening
            }
            guard let opening, let (closing, line) = closing, !statement!.isInterim else { return }
            let computed = Money(
                minorUnits: opening.minorUnits &+ statement!.total, currency: opening.currency)
            if computed != closing {
                report(
                    .balance(
                        "CLBD", .closingBalanceMismatch(declared: closing, computed: computed)),
                    line: line, column: 1)
            }
        }
    }
}
