import Foundation

/// Reads OFX bank and credit card statements into validated transactions, streaming: OFX 1.x
/// (an SGML header of `KEY:VALUE` lines, then tags whose values need no closing tag), OFX 2.x
/// (XML) and Quicken's QFX, which is OFX 1.x.
///
/// Per statement (`STMTRS` or `CCSTMTRS`, several per file): the currency `CURDEF`; the
/// account from `BANKACCTFROM` (`BANKID`, `ACCTID`, `ACCTTYPE`: a US routing number and
/// account number become `aba:`, any other `name:`) or `CCACCTFROM` (a card: `card:` with the
/// issuer from `FI/ORG` and the last four digits of `ACCTID`); per `STMTTRN` `DTPOSTED`
/// (`YYYYMMDD`, with or without a time and a zone such as `[-5:EST]`: the day as written),
/// `TRNAMT` (signed, `.` or `,` as decimal mark), `FITID` as the transaction id, `NAME` or
/// `PAYEE/NAME` as the counterparty, `MEMO` as the description, `CHECKNUM` and `REFNUM` as the
/// reference; `LEDGERBAL/BALAMT` is the balance after the statement, which gives a new
/// account its opening balance. The header's `CHARSET:1252` (or `ISO-8859-1`) is honoured;
/// text that is not valid UTF-8 is read as Windows-1252.
package struct OFXParser: Sendable {
    package init() {}

    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = OFXReader(source: source)
        var state = State(diagnostics: DiagnosticCollector(file: ""))
        swap(&state.diagnostics, &diagnostics)
        defer { swap(&state.diagnostics, &diagnostics) }
        do throws(XMLSyntaxError) {
            while let event = try reader.next() {
                state.handle(event, line: reader.eventLine, column: reader.eventColumn, onRow)
            }
        } catch {
            state.diagnostics.report(
                .ofxSyntax(error.message), line: error.line, column: error.column)
            return state.summary
        }
        if !state.sawStatement {
            state.diagnostics.report(
                .noStatement(format: "OFX", first: "<STMTRS> or <CCSTMTRS>"), line: 1, column: 1)
        }
        return state.summary
    }
}

extension OFXParser {
    struct Statement {
        let line: Int
        let column: Int
        let isCard: Bool
        var currency: PlacedText?
        var bankID: String?
        var accountID: PlacedText?
        var accountType: String?
        var account: Account?
        var accountChecked = false
        var ledgerBalance: PlacedText?
        var total: Int64 = 0
        var isValid = true
    }

    struct Transaction {
        let line: Int
        var values: [String: PlacedText] = [:]
    }

    struct State {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        var path: [String] = []
        var sawStatement = false
        var organization: String?
        var statement: Statement?
        var transaction: Transaction?
        /// The ids of the statement being read, to find one given to two of its bookings.
        /// Per statement, so that memory follows the largest statement, not the file; the
        /// same id in two statements of a file is the import's to judge (the ledger finds an
        /// id already there with another amount).
        var transactionIDs = TransactionIDChecker()

        init(diagnostics: DiagnosticCollector) {
            self.diagnostics = diagnostics
        }

        mutating func handle(
            _ event: OFXReader<some ByteSource>.Event, line: Int, column: Int,
            _ onRow: (ParsedRow) -> Void
        ) {
            switch event {
            case .start(let name):
                path.append(name)
                switch name {
                case "STMTRS", "CCSTMTRS":
                    sawStatement = true
                    statement = Statement(line: line, column: column, isCard: name == "CCSTMTRS")
                    transactionIDs = TransactionIDChecker()
                case "STMTTRN" where statement != nil:
                    transaction = Transaction(line: line)
                default: break
                }
            case .leaf(let name, let value):
                let located = PlacedText(text: value, line: line, column: column)
                if transaction != nil && path.last == "STMTTRN"
                    || transaction != nil && path.last == "PAYEE" && name == "NAME"
                {
                    if transaction!.values[name] == nil { transaction!.values[name] = located }
                } else if statement != nil {
                    switch (path.last, name) {
                    case (_, "CURDEF"): statement!.currency = located
                    case ("BANKACCTFROM", "BANKID"): statement!.bankID = value
                    case ("BANKACCTFROM", "ACCTID"), ("CCACCTFROM", "ACCTID"):
                        statement!.accountID = located
                    case ("BANKACCTFROM", "ACCTTYPE"): statement!.accountType = value
                    case ("LEDGERBAL", "BALAMT"): statement!.ledgerBalance = located
                    default: break
                    }
                } else if path.last == "FI" && name == "ORG" {
                    organization = value
                }
            case .end(let name):
                switch name {
                case "STMTTRN" where transaction != nil:
                    endTransaction(onRow)
                    transaction = nil
                case "STMTRS",
                    "CCSTMTRS" where statement != nil:
                    endStatement()
                    statement = nil
                default: break
                }
                path.removeLast()
            }
        }

        mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
            diagnostics.report(message, line: line, column: column)
            if message.code.defaultSeverity == .error { statement?.isValid = false }
        }

        mutating func account() -> Account? {
            guard let statement, !statement.accountChecked else { return statement?.account }
            self.statement!.accountChecked = true
            guard let code = statement.currency else {
                report(.elementMissing("<CURDEF>"), line: statement.line, column: statement.column)
                return nil
            }
            guard let currency = Currency(code: code.text) else {
                report(
                    .currency("CURDEF", Diagnostic.quote(code.text)), line: code.line,
                    column: code.column)
                return nil
            }
            guard let number = statement.accountID else {
                report(.elementMissing("<ACCTID>"), line: statement.line, column: statement.column)
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
                if let bank = statement.bankID, currency.code == "USD" {
                    id = try? AccountID(parsing: "aba:\(bank)/\(number.text)")
                }
                id =
                    id
                    ?? (try? AccountID(
                        accountNumber: (statement.bankID.map { $0 + "-" } ?? "") + number.text))
                if statement.accountType == "SAVINGS" || statement.accountType == "MONEYMRKT" {
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

        /// An OFX amount: signed, with `.` or `,` as its decimal mark.
        mutating func money(_ value: PlacedText, _ name: String, currency: Currency) -> Money? {
            let dotted = value.text.utf8.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }
            let result = dotted.withUnsafeBytes { bytes in
                Result { () throws(AmountError) in try Money(parsing: bytes, currency: currency) }
            }
            switch result {
            case .success(let money): return money
            case .failure(let error):
                report(
                    .amount(
                        name, Diagnostic.quote(value.text), error, currency: currency, example: nil),
                    line: value.line, column: value.column)
                return nil
            }
        }

        /// `YYYYMMDD`, then optionally `HHMMSS`, `.XXX` and a zone `[-5:EST]`.
        static func day(_ text: String) -> Day? {
            let bytes = Array(text.utf8)
            guard bytes.count >= 8, bytes[0..<8].allSatisfy({ $0 &- 48 < 10 }) else { return nil }
            let rest = bytes[8...]
            let time = rest.prefix { $0 != UInt8(ascii: "[") }
            guard time.allSatisfy({ $0 &- 48 < 10 || $0 == UInt8(ascii: ".") }),
                time.count == rest.count || rest.last == UInt8(ascii: "]")
            else { return nil }
            let digits = bytes[0..<8].map { Int($0 - 48) }
            return try? Day(
                year: digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3],
                month: digits[4] * 10 + digits[5], day: digits[6] * 10 + digits[7])
        }

        mutating func endTransaction(_ onRow: (ParsedRow) -> Void) {
            guard let transaction else { return }
            summary.rowCount += 1
            guard let account = account() else { return }
            let values = transaction.values
            guard let posted = values["DTPOSTED"] else {
                report(
                    .elementMissing("<DTPOSTED>", in: "<STMTTRN>"), line: transaction.line,
                    column: 1)
                return
            }
            guard let date = Self.day(posted.text) else {
                report(
                    .date(
                        "DTPOSTED", Diagnostic.quote(posted.text), .malformed,
                        format: try? DateFormat("yyyyMMdd")),
                    line: posted.line, column: posted.column)
                return
            }
            guard let amountText = values["TRNAMT"] else {
                report(
                    .elementMissing("<TRNAMT>", in: "<STMTTRN>"), line: transaction.line, column: 1)
                return
            }
            guard let amount = money(amountText, "TRNAMT", currency: account.currency) else {
                return
            }
            let (total, overflow) = statement!.total.addingReportingOverflow(amount.minorUnits)
            guard !overflow else {
                report(.sumOverflow, line: transaction.line, column: 1)
                return
            }
            statement!.total = total
            let name = values["NAME"]?.text.nilIfEmpty
            let memo = values["MEMO"]?.text.nilIfEmpty
            let reference = (values["CHECKNUM"] ?? values["REFNUM"])?.text.nilIfEmpty
            let built = StatementKit.Transaction(
                date: date, amount: amount,
                beneficiary: name ?? memo ?? values["TRNTYPE"]?.text.nilIfEmpty ?? "(no name)",
                description: memo, reference: reference,
                transactionID: values["FITID"]?.text.nilIfEmpty)
            if let conflict = transactionIDs.check(
                built, account: account.id, line: transaction.line)
            {
                report(conflict, line: transaction.line, column: 1)
                return
            }
            onRow(ParsedRow(account: account, transaction: built, line: transaction.line))
        }

        mutating func endStatement() {
            guard let account = account(), statement!.isValid,
                let balance = statement!.ledgerBalance,
                let closing = money(balance, "LEDGERBAL/BALAMT", currency: account.currency)
            else { return }
            // The balance after the statement tells the balance before it.
            if summary.openingBalances[account.id] == nil {
                summary.openingBalances[account.id] = Money(
                    minorUnits: closing.minorUnits &- statement!.total, currency: account.currency)
            }
        }
    }
}

/// The tags of an OFX document, SGML (leaf values without closing tags) or XML alike.
struct OFXReader<Source: ByteSource> {
    enum Event: Equatable {
        case start(String)
        case leaf(String, String)
        case end(String)
    }

    private var cursor: ByteCursor<Source>
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    private var open: [String] = []
    /// The leaf just read, whose closing tag (XML) may follow.
    private var lastLeaf: String?
    private var isWindows1252 = false
    private var sawHeader = false
    private var sawRoot = false

    /// The longest tag, value or header.
    static var maximumTokenLength: Int { 1 << 20 }

    init(source: Source) {
        cursor = ByteCursor(source: source)
    }

    mutating func next() throws(XMLSyntaxError) -> Event? {
        if !sawHeader {
            sawHeader = true
            try readHeader()
        }
        while true {
            _ = try cursor.take(limit: .max) { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard try cursor.ensure(1) else {
                if let name = open.last { throw error("the file ends inside <\(name)>") }
                if !sawRoot { throw error("the file holds no <OFX> element") }
                return nil
            }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            guard cursor.current == UInt8(ascii: "<") else {
                throw error("text outside any element")
            }
            if try cursor.starts(with: "<?") {
                _ = try cursor.read(upTo: "?>", limit: Self.maximumTokenLength)
                continue
            }
            if try cursor.starts(with: "<!--") {
                _ = try cursor.read(upTo: "-->", limit: Self.maximumTokenLength)
                continue
            }
            cursor.consume(1)
            let tag = XMLReader<Source>.trimmed(
                try cursor.read(upTo: ">", limit: Self.maximumTokenLength)[...])
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst()).uppercased()
                if name == lastLeaf {
                    lastLeaf = nil
                    continue
                }
                lastLeaf = nil
                guard let index = open.lastIndex(of: name) else {
                    throw error("</\(name)> closes nothing")
                }
                // SGML lets an aggregate close the ones inside it; OFX never needs it.
                guard index == open.count - 1 else {
                    throw error("</\(name)> closes <\(open.last!)>")
                }
                open.removeLast()
                return .end(name)
            }
            let name = String(
                decoding: tag.utf8.prefix { $0 != UInt8(ascii: " ") }.map {
                    $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0
                }, as: UTF8.self)
            guard !name.isEmpty else { throw error("a tag without a name") }
            lastLeaf = nil
            let valueStart = (cursor.line, cursor.column)
            let value = try readValue()
            if !value.isEmpty {
                // A value is located where it starts, after its tag.
                (eventLine, eventColumn) = valueStart
                lastLeaf = name
                return .leaf(name, value)
            }
            guard open.count < 64 else { throw error("nesting deeper than 64 levels") }
            guard !(open.isEmpty && sawRoot) else { throw error("a second root element <\(name)>") }
            sawRoot = true
            open.append(name)
            return .start(name)
        }
    }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: eventLine, column: eventColumn)
    }

    /// The OFX 1 header, `KEY:VALUE` lines before the first `<`; its charset.
    private mutating func readHeader() throws(XMLSyntaxError) {
        let header = try cursor.take(limit: 4096) { $0 != UInt8(ascii: "<") }
        let text = String(decoding: header, as: UTF8.self).uppercased()
        isWindows1252 =
            text.contains("CHARSET:1252") || text.contains("CHARSET:ISO-8859-1")
            || text.contains("CHARSET:8859-1")
    }

    /// A leaf's value: the text up to the next `<`, without surrounding white space.
    private mutating func readValue() throws(XMLSyntaxError) -> String {
        // A view of the cursor's buffer, narrowed without mutating it (which would copy it).
        var slice = try cursor.take(limit: Self.maximumTokenLength) { $0 != UInt8(ascii: "<") }
        while let last = slice.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) {
            slice = slice.dropLast()
        }
        while let first = slice.first, [0x20, 0x09, 0x0A, 0x0D].contains(first) {
            slice = slice.dropFirst()
        }
        var bytes = Array(slice)
        if bytes.contains(UInt8(ascii: "&")) { bytes = Self.decodingEntities(bytes) }
        let isASCII = !bytes.contains { $0 >= 0x80 }
        return isASCII || !(isWindows1252 || String(validating: bytes, as: UTF8.self) == nil)
            ? String(decoding: bytes, as: UTF8.self)
            : String(decoding: TextEncoding.windows1252.utf8(from: bytes), as: UTF8.self)
    }

    /// The named entities SGML OFX writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
    /// `&nbsp;`) replaced; any other `&` stays as it is.
    static func decodingEntities(_ bytes: [UInt8]) -> [UInt8] {
        let entities: [(name: [UInt8], byte: UInt8)] = [
            ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"),
            ("&nbsp;", " "),
        ].map { (Array($0.0.utf8), UInt8(ascii: $0.1)) }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"),
                let entity = entities.first(where: { bytes[index...].starts(with: $0.name) })
            {
                result.append(entity.byte)
                index += entity.name.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
