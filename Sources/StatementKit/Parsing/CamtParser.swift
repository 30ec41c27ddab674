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
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only, and
    /// keeps no text that only a built row uses (names, remittance information, references).
    let buildsRows: Bool

    package init(buildsRows: Bool = true) {
        self.buildsRows = buildsRows
    }

    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = XMLReader(source: source, names: Element.names)
        var state = State(diagnostics: DiagnosticCollector(file: ""), buildsRows: buildsRows)
        return state.parse(
            into: &diagnostics, syntax: DiagnosticMessage.xmlSyntax,
            noStatement: .noStatement(format: "camt", first: "<Stmt>, <Rpt> or <Ntfctn>")
        ) { (state) throws(XMLSyntaxError) in
            while let event = try reader.next() { state.handle(event, &reader, onRow) }
        }
    }
}

extension CamtParser {
    /// The elements the reader looks for, numbered first in the reader's name table.
    enum Element: String, KnownNames {
        case bkToCstmrStmt = "BkToCstmrStmt"
        case bkToCstmrAcctRpt = "BkToCstmrAcctRpt"
        case bkToCstmrDbtCdtNtfctn = "BkToCstmrDbtCdtNtfctn"
        case stmt = "Stmt"
        case rpt = "Rpt"
        case ntfctn = "Ntfctn"
        case bal = "Bal"
        case ntry = "Ntry"
        case txDtls = "TxDtls"
        case amt = "Amt"
        case acct = "Acct"
        case id = "Id"
        case othr = "Othr"
        case iban = "IBAN"
        case ccy = "Ccy"
        case cd = "Cd"
        case tp = "Tp"
        case cdOrPrtry = "CdOrPrtry"
        case cdtDbtInd = "CdtDbtInd"
        case sts = "Sts"
        case dt = "Dt"
        case dtTm = "DtTm"
        case bookgDt = "BookgDt"
        case acctSvcrRef = "AcctSvcrRef"
        case addtlNtryInf = "AddtlNtryInf"
        case txAmt = "TxAmt"
        case nm = "Nm"
        case dbtr = "Dbtr"
        case cdtr = "Cdtr"
        case pty = "Pty"
        case dbtrAcct = "DbtrAcct"
        case cdtrAcct = "CdtrAcct"
        case ustrd = "Ustrd"
        case rmtInf = "RmtInf"
        case ref = "Ref"
        case cdtrRefInf = "CdtrRefInf"
        case endToEndId = "EndToEndId"
        case refs = "Refs"
        case addtlTxInf = "AddtlTxInf"

        static let all = allCases

        static let statements: Set<Element> = [
            .bkToCstmrStmt, .bkToCstmrAcctRpt, .bkToCstmrDbtCdtNtfctn,
        ]
    }

    /// One `TxDtls` of an entry.
    struct Details {
        var amount: PlacedText?
        var currency: String?
        var indicator: String?
        var debtorName: String?
        var creditorName: String?
        var debtorIBAN: PlacedText?
        var creditorIBAN: PlacedText?
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
        /// `Dt/Dt`, or the day of `Dt/DtTm`.
        var date: String?
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

    struct State: MarkupParserState {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        /// The open elements, `nil` for those not looked for.
        var path: [Element?] = []
        /// Where the element that ends last started, for an empty value.
        var startLine = 0
        var startColumn = 0
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

        let buildsRows: Bool

        init(diagnostics: DiagnosticCollector, buildsRows: Bool) {
            self.diagnostics = diagnostics
            self.buildsRows = buildsRows
        }

        mutating func handle<S>(
            _ event: XMLReader<S>.Event, _ reader: inout XMLReader<S>,
            _ onRow: (ParsedRow) -> Void
        ) {
            switch event {
            case .start(let number):
                let element = Element.numbered(number)
                (startLine, startColumn) = (reader.eventLine, reader.eventColumn)
                if let element {
                    start(element, &reader, line: reader.eventLine, column: reader.eventColumn)
                }
                path.append(element)
            case .end(let number):
                if let element = Element.numbered(number) {
                    end(element, &reader, onRow)
                }
                path.removeLast()
            }
        }

        /// The text of the element ending, where it starts (where the element starts when
        /// it is empty).
        static func value<S>(_ reader: inout XMLReader<S>, start: (line: Int, column: Int))
            -> PlacedText
        {
            let text = reader.text
            return text.isEmpty
                ? PlacedText(text: text, line: start.line, column: start.column)
                : PlacedText(text: text, line: reader.textLine, column: reader.textColumn)
        }

        /// Whether the open elements end with `parent` and `name` (the element just started
        /// or ended being the last).
        func within(_ parent: Element, _ name: Element) -> Bool {
            let count = path.count
            return count >= 2 && path[count - 1] == name && path[count - 2] == parent
        }

        func within(_ grandparent: Element, _ parent: Element, _ name: Element) -> Bool {
            let count = path.count
            return count >= 3 && path[count - 1] == name && path[count - 2] == parent
                && path[count - 3] == grandparent
        }

        func within(_ first: Element, _ second: Element, _ third: Element, _ name: Element)
            -> Bool
        {
            let count = path.count
            return count >= 4 && path[count - 1] == name && path[count - 2] == third
                && path[count - 3] == second && path[count - 4] == first
        }

        var attributeCurrency: String?

        mutating func start<S>(
            _ element: Element, _ reader: inout XMLReader<S>, line: Int, column: Int
        ) {
            switch element {
            case .bkToCstmrAcctRpt:
                isReport = true
            case .stmt, .rpt, .ntfctn:
                guard let parent = path.last, let parent, Element.statements.contains(parent)
                else { break }
                sawStatement = true
                statement = Statement(line: line, column: column, isInterim: isReport)
                transactionIDs = TransactionIDChecker()
            case .bal where statement != nil && path.last != .ntry:
                balance = Balance(line: line)
            case .ntry where statement != nil:
                entry = Entry(line: line)
            case .txDtls where entry != nil:
                details = Details()
            case .amt:
                attributeCurrency = reader.attribute("Ccy")
            default:
                break
            }
        }

        mutating func end<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .stmt, .rpt, .ntfctn:
                guard statement != nil, path.count >= 2, let parent = path[path.count - 2],
                    Element.statements.contains(parent)
                else { return }
                endStatement()
                return
            default:
                break
            }
            let start = (startLine, startColumn)
            let value = { Self.value(&reader, start: start) }
            if details != nil {
                endInDetails(element, value)
            } else if entry != nil {
                endInEntry(element, value, onRow)
            } else if balance != nil {
                endInBalance(element, value)
            } else if statement != nil {
                endInStatement(element, value)
            }
        }

        mutating func endInStatement(_ element: Element, _ value: () -> PlacedText) {
            switch element {
            case .iban where within(.acct, .id, .iban): statement!.iban = value()
            case .id where within(.acct, .id, .othr, .id): statement!.otherID = value()
            case .ccy where within(.acct, .ccy): statement!.currency = value()
            default: break
            }
        }

        mutating func endInBalance(_ element: Element, _ value: () -> PlacedText) {
            switch element {
            case .cd where within(.tp, .cdOrPrtry, .cd): balance!.type = value().text
            case .amt where within(.bal, .amt):
                balance!.amount = value()
                balance!.currency = attributeCurrency
            case .cdtDbtInd where within(.bal, .cdtDbtInd): balance!.indicator = value().text
            case .dt where within(.bal, .dt, .dt), .dtTm where within(.bal, .dt, .dtTm):
                balance!.date = String(value().text.prefix(10))
            case .bal:
                statement!.balances.append(balance!)
                balance = nil
            default: break
            }
        }

        mutating func endInEntry(
            _ element: Element, _ value: () -> PlacedText, _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .amt where within(.ntry, .amt):
                entry!.amount = value()
                entry!.currency = attributeCurrency
            case .cdtDbtInd where within(.ntry, .cdtDbtInd): entry!.indicator = value()
            case .sts where within(.ntry, .sts):
                let status = value().text
                if !status.isEmpty { entry!.status = status }
            case .cd where within(.ntry, .sts, .cd): entry!.status = value().text
            case .dt where within(.bookgDt, .dt), .dtTm where within(.bookgDt, .dtTm):
                entry!.bookingDate = value()
            case .acctSvcrRef where within(.ntry, .acctSvcrRef):
                entry!.serviceReference = value().text
            case .addtlNtryInf where buildsRows && within(.ntry, .addtlNtryInf):
                entry!.additional = value().text
            case .ntry:
                endEntry(onRow)
                entry = nil
            default: break
            }
        }

        mutating func endInDetails(_ element: Element, _ value: () -> PlacedText) {
            switch element {
            case .amt where within(.txDtls, .amt) || within(.txAmt, .amt):
                details!.amount = value()
                details!.currency = attributeCurrency
            case .cdtDbtInd where within(.txDtls, .cdtDbtInd):
                details!.indicator = value().text
            case .nm where buildsRows && (within(.dbtr, .nm) || within(.dbtr, .pty, .nm)):
                details!.debtorName = value().text
            case .nm where buildsRows && (within(.cdtr, .nm) || within(.cdtr, .pty, .nm)):
                details!.creditorName = value().text
            case .iban where within(.dbtrAcct, .id, .iban): details!.debtorIBAN = value()
            case .iban where within(.cdtrAcct, .id, .iban): details!.creditorIBAN = value()
            case .ustrd where buildsRows && within(.rmtInf, .ustrd):
                let text = value().text
                if !text.isEmpty { details!.unstructured.append(text) }
            case .ref where buildsRows && within(.cdtrRefInf, .ref):
                details!.creditorReference = value().text
            case .endToEndId where buildsRows && within(.refs, .endToEndId):
                details!.endToEndID = value().text
            case .acctSvcrRef where within(.refs, .acctSvcrRef):
                details!.reference = value().text
            case .addtlTxInf where buildsRows && within(.txDtls, .addtlTxInf):
                details!.additional = value().text
            case .txDtls:
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
                // The counterparty's `<IBAN>` is checked as every IBAN is: a damaged one is
                // reported where it stands, never dropped from the row.
                var counterpartyIBAN: IBAN?
                if let given = isDebit ? part.creditorIBAN : part.debtorIBAN {
                    do throws(IBANError) {
                        counterpartyIBAN = try IBAN(parsing: given.text)
                    } catch {
                        let element = isDebit ? "CdtrAcct/Id/IBAN" : "DbtrAcct/Id/IBAN"
                        report(.iban(element, Diagnostic.quote(given.text), error), at: given)
                        continue
                    }
                }
                let id: String? =
                    parts.count > 1
                    ? (part.reference ?? entry.serviceReference.map { "\($0)/\(index + 1)" })
                    : (entry.serviceReference ?? part.reference)
                guard buildsRows else {
                    // Checked, not built: only a transaction id given to two bookings can be
                    // wrong.
                    if let id,
                        let conflict = transactionIDs.check(
                            id: id, amount: amount, date: day, account: account.id,
                            line: entry.line)
                    {
                        report(conflict, line: entry.line, column: 1)
                    }
                    continue
                }
                let name = isDebit ? part.creditorName : part.debtorName
                let description =
                    part.unstructured.isEmpty
                    ? (part.additional ?? entry.additional)
                    : part.unstructured.joined(separator: " ")
                let endToEnd = part.endToEndID.flatMap {
                    $0.uppercased() == "NOTPROVIDED" ? nil : $0
                }
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
            var stated: [StatedBalance] = []
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
                let day = balance.date.flatMap { date in
                    try? date.parsingUTF8 { (bytes) throws(DayError) in try Day(parsing: bytes) }
                }
                // `OPBD` before `PRCD`, as for the opening balance above.
                if type == "OPBD" { stated.removeAll { $0.point == .opening } }
                if type == "CLBD" || !stated.contains(where: { $0.point == .opening }) {
                    stated.append(
                        StatedBalance(
                            account: account, point: type == "CLBD" ? .closing : .opening,
                            balance: money, line: balance.line, statementLine: statement!.line,
                            statedDay: day))
                }
            }
            summary.statedBalances += stated
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
