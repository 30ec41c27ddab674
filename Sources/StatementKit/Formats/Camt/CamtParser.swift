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
///
/// The schema's shape is enforced where money depends on it: an element allowed once in its
/// parent (`Element.slot(in:)`) given twice is `ELEMENT_DUPLICATE` and its entry no row; an
/// `Ntry` or `Bal` anywhere but directly in its statement, a `TxDtls` outside `NtryDtls` or a
/// statement in a statement is `ELEMENT_MISPLACED`, and its content is not read. A damaged
/// counterparty IBAN is the warning `COUNTERPARTY_IBAN` (the bank booked the payment; the row
/// is kept without it); a value kept for a row over `maximumKeptText` is `TEXT_TOO_LONG`.
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
        case ntryDtls = "NtryDtls"
        case amtDtls = "AmtDtls"
        case rltdPties = "RltdPties"

        static let all = allCases

        static let statements: Set<Element> = [
            .bkToCstmrStmt, .bkToCstmrAcctRpt, .bkToCstmrDbtCdtNtfctn,
        ]

        /// The element whose bit (`1 << number`) is the element's slot in `parent`, when the
        /// schema allows it there once at most: itself, or the first of a choice; `nil` for
        /// one that may repeat, or whose repetition nothing read depends on.
        @inline(__always)
        func slot(in parent: Element) -> Element? {
            // By parent first: most parents have no such child, and each switch is a jump.
            switch parent {
            case .stmt, .rpt, .ntfctn: self == .acct ? self : nil
            case .acct: self == .id || self == .ccy ? self : nil
            // A choice: an account is an IBAN or another id.
            case .id: self == .iban || self == .othr ? .iban : nil
            case .othr, .dbtrAcct, .cdtrAcct: self == .id ? self : nil
            case .bal: self == .tp || self == .amt || self == .cdtDbtInd ? self : nil
            case .tp: self == .cdOrPrtry ? self : nil
            case .cdOrPrtry, .sts: self == .cd ? self : nil
            case .ntry:
                switch self {
                case .amt, .cdtDbtInd, .sts, .bookgDt, .acctSvcrRef, .addtlNtryInf: self
                default: nil
                }
            // A choice: a day is a date, or a date and time.
            case .bookgDt: self == .dt || self == .dtTm ? .dt : nil
            case .txDtls:
                switch self {
                case .amt, .cdtDbtInd, .refs, .rltdPties, .rmtInf, .amtDtls, .addtlTxInf: self
                default: nil
                }
            case .amtDtls: self == .txAmt ? self : nil
            case .txAmt: self == .amt ? self : nil
            case .refs: self == .acctSvcrRef || self == .endToEndId ? self : nil
            case .rltdPties:
                self == .dbtr || self == .cdtr || self == .dbtrAcct || self == .cdtrAcct
                    ? self : nil
            case .dbtr, .cdtr: self == .nm || self == .pty ? self : nil
            case .pty: self == .nm ? self : nil
            case .cdtrRefInf: self == .ref ? self : nil
            default: nil
            }
        }

        /// The bits of the choices' first elements, `iban` and `dt`.
        static let choiceBits = (
            iban: UInt64(1) << all.firstIndex(of: .iban)!, dt: UInt64(1) << all.firstIndex(of: .dt)!
        )
    }

    /// The longest value kept for a row (a name, the description, a reference), in UTF-8
    /// bytes: a bank's text fields are far shorter (`Ustrd` 140 characters, `AddtlNtryInf`
    /// 500), and a ledger keeps no megabytes of text from one booking.
    static let maximumKeptText = 8192

    /// One `TxDtls` of an entry.
    struct Details {
        var amount: PlacedText?
        /// How many bytes the `Ustrd` lines hold together.
        var unstructuredLength = 0
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
        /// The errors of the file before the entry: one reported in it (an element given
        /// twice or misplaced, a text too long) keeps it from being a row.
        var errorsBefore = 0
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
        /// An open element: its name (`nil` for one not looked for), and the slots
        /// (`Element.slot(in:)`) of its children seen so far.
        struct Open {
            let element: Element?
            var seen: UInt64 = 0
        }

        /// The open elements, outermost first.
        var path: [Open] = []
        /// The depth of a misplaced element whose content is not read (its error said
        /// enough).
        var ignoredDepth: Int?
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

        @inline(__always)
        mutating func handle<S>(
            _ event: XMLReader<S>.Event, _ reader: inout XMLReader<S>,
            _ onRow: (ParsedRow) -> Void
        ) {
            if let depth = ignoredDepth {
                if case .start(let number) = event {
                    path.append(Open(element: Element.numbered(number)))
                } else {
                    path.removeLast()
                    if path.count == depth { ignoredDepth = nil }
                }
                return
            }
            switch event {
            case .start(let number):
                let element = Element.numbered(number)
                (startLine, startColumn) = (reader.eventLine, reader.eventColumn)
                if let element {
                    if let parent = path.last?.element, let slot = element.slot(in: parent) {
                        let bit =
                            slot == element
                            ? UInt64(1) << number
                            : slot == .iban ? Element.choiceBits.iban : Element.choiceBits.dt
                        if path[path.count - 1].seen & bit != 0 {
                            report(
                                .elementDuplicate(element.rawValue, in: parent.rawValue),
                                line: startLine, column: startColumn)
                        }
                        path[path.count - 1].seen |= bit
                    }
                    start(element, &reader, line: reader.eventLine, column: reader.eventColumn)
                }
                // A misplaced element (at this depth) is not read, its end included.
                path.append(Open(element: element))
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
            return count >= 2 && path[count - 1].element == name
                && path[count - 2].element == parent
        }

        func within(_ grandparent: Element, _ parent: Element, _ name: Element) -> Bool {
            let count = path.count
            return count >= 3 && path[count - 1].element == name
                && path[count - 2].element == parent && path[count - 3].element == grandparent
        }

        func within(_ first: Element, _ second: Element, _ third: Element, _ name: Element)
            -> Bool
        {
            let count = path.count
            return count >= 4 && path[count - 1].element == name
                && path[count - 2].element == third && path[count - 3].element == second
                && path[count - 4].element == first
        }

        var attributeCurrency: String?

        mutating func start<S>(
            _ element: Element, _ reader: inout XMLReader<S>, line: Int, column: Int
        ) {
            switch element {
            case .bkToCstmrAcctRpt:
                isReport = true
            case .stmt, .rpt, .ntfctn:
                guard statement == nil else {
                    misplaced(element, line: line, column: column)
                    break
                }
                guard let parent = path.last?.element, Element.statements.contains(parent)
                else { break }
                sawStatement = true
                statement = Statement(line: line, column: column, isInterim: isReport)
                transactionIDs = TransactionIDChecker()
            case .bal, .ntry:
                // Directly in a statement, and nowhere else: a booking inside another, or
                // outside any statement, would be read as another's or lost.
                guard statement != nil, entry == nil, balance == nil,
                    let parent = path.last?.element,
                    parent == .stmt || parent == .rpt || parent == .ntfctn
                else {
                    misplaced(element, line: line, column: column)
                    break
                }
                if element == .bal {
                    balance = Balance(line: line)
                } else {
                    entry = Entry(line: line, errorsBefore: diagnostics.errorCount)
                }
            case .txDtls:
                guard entry != nil, details == nil, path.last?.element == .ntryDtls else {
                    misplaced(element, line: line, column: column)
                    break
                }
                details = Details()
            case .amt:
                attributeCurrency = reader.attribute("Ccy")
            default:
                break
            }
        }

        /// Reports an element where the schema does not allow it.
        mutating func misplaced(_ element: Element, line: Int, column: Int) {
            ignoredDepth = path.count
            let parent =
                path.last.map { $0.element.map { "<\($0.rawValue)>" } ?? "an element not read" }
                ?? "no element"
            let allowed =
                switch element {
                case .stmt, .rpt, .ntfctn:
                    "<BkToCstmrStmt>, <BkToCstmrAcctRpt> or <BkToCstmrDbtCdtNtfctn>"
                case .txDtls: "<NtryDtls> of an <Ntry>"
                default: "<Stmt>, <Rpt> or <Ntfctn>"
                }
            report(
                .elementMisplaced(element.rawValue, in: parent, allowed: allowed), line: line,
                column: column)
        }

        /// A value kept for a row, reported when it is longer than `maximumKeptText`; when
        /// rows are not built, only its length is checked, and no string made.
        mutating func kept<S>(
            _ reader: inout XMLReader<S>, _ start: (Int, Int), _ name: String,
            isNeeded: Bool = false
        ) -> String? {
            guard buildsRows || isNeeded else {
                let (length, line, column) = (reader.textLength, reader.textLine, reader.textColumn)
                if length > CamtParser.maximumKeptText {
                    report(
                        .textTooLong(name, length: length, limit: CamtParser.maximumKeptText),
                        line: line, column: column)
                }
                return nil
            }
            let placed = Self.value(&reader, start: start)
            let length = placed.text.utf8.count
            if length > CamtParser.maximumKeptText {
                report(
                    .textTooLong(name, length: length, limit: CamtParser.maximumKeptText),
                    at: placed)
            }
            return placed.text
        }

        mutating func end<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .stmt, .rpt, .ntfctn:
                guard statement != nil, path.count >= 2, let parent = path[path.count - 2].element,
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
                endInDetails(element, &reader, start)
            } else if entry != nil {
                endInEntry(element, &reader, start, onRow)
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

        // The readers are passed on, not closures over them: two closure arguments would keep
        // these from being specialised, and cost two allocations at every end.

        mutating func endInEntry<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int),
            _ onRow: (ParsedRow) -> Void
        ) {
            switch element {
            case .amt where within(.ntry, .amt):
                entry!.amount = Self.value(&reader, start: start)
                entry!.currency = attributeCurrency
            case .cdtDbtInd where within(.ntry, .cdtDbtInd):
                entry!.indicator = Self.value(&reader, start: start)
            case .sts where within(.ntry, .sts):
                let status = Self.value(&reader, start: start).text
                if !status.isEmpty { entry!.status = status }
            case .cd where within(.ntry, .sts, .cd):
                entry!.status = Self.value(&reader, start: start).text
            case .dt where within(.bookgDt, .dt), .dtTm where within(.bookgDt, .dtTm):
                entry!.bookingDate = Self.value(&reader, start: start)
            case .acctSvcrRef where within(.ntry, .acctSvcrRef):
                // The transaction id is checked for conflicts when rows are not built, too.
                entry!.serviceReference = kept(&reader, start, "AcctSvcrRef", isNeeded: true)
            case .addtlNtryInf where within(.ntry, .addtlNtryInf):
                entry!.additional = kept(&reader, start, "AddtlNtryInf")
            case .ntry:
                endEntry(onRow)
                entry = nil
            default: break
            }
        }

        mutating func endInDetails<S>(
            _ element: Element, _ reader: inout XMLReader<S>, _ start: (Int, Int)
        ) {
            switch element {
            case .amt where within(.txDtls, .amt) || within(.amtDtls, .txAmt, .amt):
                let amount = Self.value(&reader, start: start)
                // `TxDtls/Amt` and `AmtDtls/TxAmt/Amt` may both be given, as one amount.
                if let first = details!.amount {
                    if first.text != amount.text || details!.currency != attributeCurrency {
                        report(
                            .elementsDisagree("TxDtls/Amt", "TxDtls/AmtDtls/TxAmt/Amt"),
                            at: amount)
                    }
                    return
                }
                details!.amount = amount
                details!.currency = attributeCurrency
            case .cdtDbtInd where within(.txDtls, .cdtDbtInd):
                details!.indicator = Self.value(&reader, start: start).text
            case .nm where within(.dbtr, .nm) || within(.dbtr, .pty, .nm):
                details!.debtorName = kept(&reader, start, "Dbtr/Nm")
            case .nm where within(.cdtr, .nm) || within(.cdtr, .pty, .nm):
                details!.creditorName = kept(&reader, start, "Cdtr/Nm")
            case .iban where within(.dbtrAcct, .id, .iban):
                details!.debtorIBAN = Self.value(&reader, start: start)
            case .iban where within(.cdtrAcct, .id, .iban):
                details!.creditorIBAN = Self.value(&reader, start: start)
            case .ustrd where within(.rmtInf, .ustrd):
                let (length, line, column) = (reader.textLength, reader.textLine, reader.textColumn)
                guard length > 0 else { break }
                // The lines are joined with a space: together they are the description.
                let limit = CamtParser.maximumKeptText + 1
                let before = details!.unstructuredLength
                details!.unstructuredLength += length + 1
                if details!.unstructuredLength > limit && before <= limit {
                    report(
                        .textTooLong(
                            "RmtInf/Ustrd", length: details!.unstructuredLength - 1,
                            limit: CamtParser.maximumKeptText), line: line, column: column)
                }
                if buildsRows && details!.unstructuredLength <= limit {
                    details!.unstructured.append(Self.value(&reader, start: start).text)
                }
            case .ref where within(.cdtrRefInf, .ref):
                details!.creditorReference = kept(&reader, start, "CdtrRefInf/Ref")
            case .endToEndId where within(.refs, .endToEndId):
                details!.endToEndID = kept(&reader, start, "EndToEndId")
            case .acctSvcrRef where within(.refs, .acctSvcrRef):
                details!.reference = kept(&reader, start, "Refs/AcctSvcrRef", isNeeded: true)
            case .addtlTxInf where within(.txDtls, .addtlTxInf):
                details!.additional = kept(&reader, start, "AddtlTxInf")
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
            guard diagnostics.errorCount == entry.errorsBefore else { return }
            // The status is mandatory: an entry without one is not taken for a booking.
            guard let status = entry.status else {
                report(.elementMissing("<Sts>", in: "<Ntry>"), line: entry.line, column: 1)
                return
            }
            // An entry left out as not booked still has the amount the schema requires.
            guard entry.amount != nil else {
                report(.elementMissing("<Amt>", in: "the entry"), line: entry.line, column: 1)
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
                // The counterparty's `<IBAN>` is checked as every IBAN is; a damaged one is
                // reported where it stands (a warning: the bank booked the payment, and the
                // row is kept, without it).
                var counterpartyIBAN: IBAN?
                if let given = isDebit ? part.creditorIBAN : part.debtorIBAN {
                    do throws(IBANError) {
                        counterpartyIBAN = try IBAN(parsing: given.text)
                    } catch {
                        let element = isDebit ? "CdtrAcct/Id/IBAN" : "DbtrAcct/Id/IBAN"
                        report(
                            .counterpartyIBAN(element, Diagnostic.quote(given.text), error),
                            at: given)
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
            guard statement != nil else { return }
            summary.statementLines.append(statement!.line)
            guard let account = account(), statement!.isValid else { return }
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

extension CamtParser: StatementReader {
    static let formatName = "ISO 20022 camt.052/053/054"
    static let readsUTF16 = true

    /// XML (`<` first) whose namespace names a camt message's schema, `camt.053.001.08`.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        head.firstNonBlank == UInt8(ascii: "<") && head.firstRange(of: Array("camt.05".utf8)) != nil
    }
}
