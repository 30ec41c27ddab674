import Foundation

/// The state of an OFX parse: the open statement and transaction, checked and built into rows.
extension OFXParser {
    struct State: MarkupParserState {
        static func syntax(_ reason: String) -> DiagnosticMessage { .ofxSyntax(reason) }
        static var noStatement: DiagnosticMessage {
            .noStatement(format: "OFX", first: "<STMTRS> or <CCSTMTRS>")
        }

        var diagnostics = DiagnosticCollector(file: "")
        var summary = ParseSummary()
        var path: [Tag?] = []
        var sawStatement = false
        var organization: String?
        var statement: Statement?
        var transaction = Transaction()
        /// The depth of a misplaced tag whose content is not read (its error said enough).
        var ignoredDepth: Int?
        /// The ids of the statement being read (a checker per statement).
        var transactionIDs = TransactionIDChecker()
        let buildsRows: Bool

        init(buildsRows: Bool) { self.buildsRows = buildsRows }

        @inline(__always)
        mutating func handle<S>(
            _ event: OFXReader<S>.Event, _ reader: inout OFXReader<S>,
            _ onRow: (ParsedRow) -> Void
        ) {
            let (line, column) = (reader.eventLine, reader.eventColumn)
            if let depth = ignoredDepth {
                switch event {
                case .start(let number): path.append(Tag.numbered(number))
                case .leaf: break
                case .end:
                    path.removeLast()
                    if path.count == depth { ignoredDepth = nil }
                }
                return
            }
            switch event {
            case .start(let number): start(number, line: line, column: column)
            case .leaf(let number): leaf(number, &reader, line: line, column: column)
            case .end(let number): end(number, onRow)
            }
        }

        /// An aggregate opens: a statement, a transaction or a transaction's currency.
        @inline(__always)
        mutating func start(_ number: Int, line: Int, column: Int) {
            let tag = Tag.numbered(number)
            let parent = path.last ?? nil
            path.append(tag)
            switch tag {
            case .stmtrs, .ccstmtrs:
                // A statement inside a statement would give its bookings to the outer one.
                if let outer = statement {
                    misplaced(
                        tag!, in: "the <STMTRS> or <CCSTMTRS> of line \(outer.start.line)",
                        allowed: "its own <STMTTRNRS>", line: line, column: column)
                    break
                }
                sawStatement = true
                statement = Statement(
                    start: SourcePosition(line: line, column: column), isCard: tag == .ccstmtrs)
                transactionIDs = TransactionIDChecker()
            case .stmttrn where statement != nil:
                // An unclosed transaction with another after it would lose its values.
                guard !transaction.isOpen else {
                    misplaced(
                        .stmttrn, in: "the <STMTTRN> of line \(transaction.line)",
                        allowed: "<BANKTRANLIST>, after the one before it is closed",
                        line: line, column: column)
                    break
                }
                transaction.open(line: line)
                transaction.errorsBefore = diagnostics.errorCount
            case .currency where transaction.isOpen && parent == .stmttrn,
                .origcurrency where transaction.isOpen && parent == .stmttrn:
                noteCurrencyKind(tag!, line: line, column: column)
            default: break
            }
        }

        /// A tag with a value: kept for the open transaction, or noted for the statement.
        @inline(__always)
        mutating func leaf<S>(
            _ number: Int, _ reader: inout OFXReader<S>, line: Int, column: Int
        ) {
            guard let tag = Tag.numbered(number) else { return }
            func value() -> PlacedText {
                PlacedText(text: reader.value, line: line, column: column)
            }
            if transaction.isOpen, let index = tag.valueIndex,
                index < 8
                    ? path.last == .stmttrn || path.last == .payee && tag == .name
                    : path.last == .currency || path.last == .origcurrency
            {
                keep(tag, index, &reader, line: line, column: column)
            } else if transaction.isOpen, tag == .currency || tag == .origcurrency,
                path.last == .stmttrn
            {
                // `<CURRENCY>EUR`, the code without the aggregate: read as its `CURSYM`.
                noteCurrencyKind(tag, line: line, column: column)
                keep(.cursym, 9, &reader, line: line, column: column)
            } else if statement != nil {
                func once<T>(_ field: WritableKeyPath<Statement, T?>, _ value: T) {
                    guard statement![keyPath: field] == nil else {
                        report(
                            .elementDuplicate(
                                tag.spelling, in: (path.last ?? nil)?.spelling ?? "STMTRS"),
                            line: line, column: column)
                        return
                    }
                    statement![keyPath: field] = value
                }
                switch (path.last, tag) {
                case (_, .curdef): once(\.currency, value())
                case (.bankacctfrom, .bankid): once(\.from.bankID, value().text)
                case (.bankacctfrom, .acctid), (.ccacctfrom, .acctid):
                    once(\.from.accountID, value())
                case (.bankacctfrom, .accttype): once(\.from.accountType, value().text)
                case (.ledgerbal, .balamt): once(\.ledgerBalance, value())
                case (.ledgerbal, .dtasof):
                    statement!.ledgerDay = Self.day(reader.value.utf8.span)
                default: break
                }
            } else if path.last == .fi && tag == .org {
                organization = value().text
            }
        }

        /// An aggregate closes: a transaction or a statement ends.
        @inline(__always)
        mutating func end(_ number: Int, _ onRow: (ParsedRow) -> Void) {
            switch Tag.numbered(number) {
            case .stmttrn where transaction.isOpen:
                transaction.isOpen = false
                endTransaction(onRow)
            case .stmtrs,
                .ccstmtrs where statement != nil:
                endStatement()
                statement = nil
            default: break
            }
            path.removeLast()
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }

        /// Keeps a value of the open transaction: a second one of a tag, or one longer than
        /// `maximumKeptText`, is an error.
        mutating func keep<S>(
            _ tag: Tag, _ index: Int, _ reader: inout OFXReader<S>, line: Int, column: Int
        ) {
            if reader.valueLength > OFXParser.maximumKeptText {
                report(
                    .textTooLong(
                        tag.spelling, length: reader.valueLength,
                        limit: OFXParser.maximumKeptText),
                    line: line, column: column)
                return
            }
            if !transaction.keep(index, from: reader, line: line, column: column) {
                let parent =
                    index < 8 ? "STMTTRN" : (transaction.currencyKind ?? .currency).spelling
                report(.elementDuplicate(tag.spelling, in: parent), line: line, column: column)
            }
        }

        /// Notes the transaction's `CURRENCY` or `ORIGCURRENCY`: it has one at most.
        mutating func noteCurrencyKind(_ tag: Tag, line: Int, column: Int) {
            guard transaction.currencyKind == nil else {
                report(
                    .elementDuplicate(tag.spelling, in: "STMTTRN"), line: line, column: column)
                return
            }
            transaction.currencyKind = tag
        }

        /// Reports a tag where OFX does not allow it.
        mutating func misplaced(
            _ tag: Tag, in container: String, allowed: String, line: Int, column: Int
        ) {
            ignoredDepth = path.count - 1
            report(
                .elementMisplaced(tag.spelling, in: container, allowed: allowed), line: line,
                column: column)
        }

        mutating func account() -> Account? {
            guard let statement, !statement.accountChecked else { return statement?.account }
            self.statement!.accountChecked = true
            guard let code = statement.currency else {
                report(
                    .elementMissing("<CURDEF>"), line: statement.start.line,
                    column: statement.start.column)
                return nil
            }
            guard let currency = Currency(code: code.text) else {
                report(
                    .currency("CURDEF", Diagnostic.quote(code.text)), line: code.line,
                    column: code.column)
                return nil
            }
            guard let number = statement.from.accountID else {
                report(
                    .elementMissing("<ACCTID>"), line: statement.start.line,
                    column: statement.start.column)
                return nil
            }
            var id: AccountID?
            var kind = Account.Kind.checking
            if statement.isCard {
                let issuer = (organization ?? "card").lowercased().filter {
                    $0.isASCII && ($0.isLetter || $0.isNumber)
                }
                let digits = number.text.filter(\.isNumber)
                id = try? AccountID(
                    parsing:
                        "card:\(issuer.isEmpty ? "card" : String(issuer.prefix(16)))/\(digits.suffix(4))"
                )
                kind = .creditCard
            } else {
                // A routing number names a US account, kept in dollars.
                if let bank = statement.from.bankID, currency.code == "USD" {
                    id = try? AccountID(parsing: "aba:\(bank)/\(number.text)")
                }
                id =
                    id
                    ?? (try? AccountID(
                        accountNumber: (statement.from.bankID.map { $0 + "-" } ?? "") + number.text))
                if statement.from.accountType == "SAVINGS"
                    || statement.from.accountType == "MONEYMRKT"
                {
                    kind = .savings
                }
            }
            guard let id else {
                report(
                    .accountID(
                        "ACCTID", Diagnostic.quote(number.text),
                        .accountID(.malformed(statement.isCard ? .card : .name))),
                    line: number.line, column: number.column)
                return nil
            }
            self.statement!.account = Account(id: id, name: nil, kind: kind, currency: currency)
            return self.statement!.account
        }

        /// An OFX amount: signed, with `.` or `,` as its decimal mark, its digits before it
        /// perhaps grouped in threes by spaces (`+1 006,60`).
        mutating func money(
            _ bytes: ArraySlice<UInt8>, line: Int, column: Int, _ name: String, currency: Currency
        ) -> Money? {
            let result = Result { () throws(AmountError) in
                try ScratchWriter.lending(
                    atMost: bytes.count,
                    { (plain) throws(AmountError) in
                        try OFXParser.plainAmount(bytes.span, into: &plain)
                    },
                    { (plain) throws(AmountError) in try Money(parsing: plain, currency: currency) }
                )
            }
            switch result {
            case .success(let money): return money
            case .failure(let error):
                report(
                    .amount(
                        name, Diagnostic.quote(String(decoding: bytes, as: UTF8.self)), error,
                        currency: currency, example: nil),
                    line: line, column: column)
                return nil
            }
        }

        /// `YYYYMMDD`, then optionally `HHMMSS`, `.XXX` and a zone `[-5:EST]`.
        static func day(_ bytes: Span<UInt8>) -> Day? {
            guard bytes.count >= 8 else { return nil }
            var date = 0
            for index in 0..<8 {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                date = date * 10 + Int(digit)
            }
            // The time: digits and points, up to a zone in brackets that ends the text.
            var index = 8
            while index < bytes.count, bytes[index] != UInt8(ascii: "[") {
                guard bytes[index] &- 48 < 10 || bytes[index] == UInt8(ascii: ".") else {
                    return nil
                }
                index += 1
            }
            guard index == bytes.count || bytes[bytes.count - 1] == UInt8(ascii: "]") else {
                return nil
            }
            return try? Day(year: date / 10_000, month: date / 100 % 100, day: date % 100)
        }

        mutating func endTransaction(_ onRow: (ParsedRow) -> Void) {
            summary.rowCount += 1
            guard diagnostics.errorCount == transaction.errorsBefore else { return }
            guard let account = account() else { return }
            let line = transaction.line
            guard let posted = transaction[.dtposted] else {
                report(.elementMissing("<DTPOSTED>", in: "<STMTTRN>"), line: line, column: 1)
                return
            }
            guard let date = Self.day(transaction.bytes(posted).span) else {
                report(
                    .date(
                        "DTPOSTED", Diagnostic.quote(transaction.string(.dtposted)!), .malformed,
                        format: try? DateFormat("yyyyMMdd")),
                    line: posted.line, column: posted.column)
                return
            }
            guard let amountValue = transaction[.trnamt] else {
                report(.elementMissing("<TRNAMT>", in: "<STMTTRN>"), line: line, column: 1)
                return
            }
            guard let (currency, rate) = transactionCurrency(account) else { return }
            guard
                var amount = money(
                    transaction.bytes(amountValue), line: amountValue.line,
                    column: amountValue.column, "TRNAMT", currency: currency)
            else { return }
            if let rate {
                guard let converted = convert(amount, at: rate, to: account.currency, amountValue)
                else { return }
                amount = converted
            }
            let (total, overflow) = statement!.total.addingReportingOverflow(amount.minorUnits)
            guard !overflow else {
                report(.sumOverflow, line: line, column: 1)
                return
            }
            statement!.total = total
            // The key of the FITID, hashed from its bytes: most rows never need it as a string.
            let key = transaction[.fitid].flatMap { fitid in
                fitid.range.isEmpty
                    ? nil
                    : TransactionIdentity(
                        prefix: statement!.idPrefix!, transactionID: transaction.bytes(fitid).span
                    ).hash
            }
            let fitid = { [transaction] in transaction.string(.fitid)! }
            guard buildsRows else {
                if let key,
                    let conflict = transactionIDs.check(
                        key: key, id: fitid(), amount: amount, date: date, line: line)
                {
                    report(conflict, line: line, column: 1)
                }
                return
            }
            let name = transaction.text(.name)
            let memo = transaction.text(.memo)
            let built = StatementKit.Transaction(
                date: date, amount: amount,
                beneficiary: name ?? memo ?? transaction.text(.trntype) ?? "(no name)",
                description: memo,
                reference: transaction.text(.checknum) ?? transaction.text(.refnum),
                transactionID: key == nil ? nil : fitid())
            if let key,
                let conflict = transactionIDs.check(
                    key: key, id: fitid(), amount: amount, date: date, line: line)
            {
                report(conflict, line: line, column: 1)
                return
            }
            onRow(ParsedRow(account: account, transaction: built, line: line))
        }

        mutating func endStatement() {
            summary.statementLines.append(statement!.start.line)
            guard let account = account(), statement!.isValid,
                let balance = statement!.ledgerBalance,
                let closing = money(
                    Array(balance.text.utf8)[...], line: balance.line, column: balance.column,
                    "LEDGERBAL/BALAMT", currency: account.currency)
            else { return }
            summary.statedBalances.append(
                StatedBalance(
                    account: account, point: .closing, balance: closing, line: balance.line,
                    statementLine: statement!.start.line, statedDay: statement!.ledgerDay))
            // The balance after the statement tells the balance before it.
            if summary.openingBalances[account.id] == nil {
                summary.openingBalances[account.id] = Money(
                    minorUnits: closing.minorUnits &- statement!.total, currency: account.currency)
            }
        }
    }
}
