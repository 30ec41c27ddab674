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
/// `TRNAMT` (signed, `.` or `,` as decimal mark, digits grouped by spaces in threes allowed;
/// in `CURRENCY/CURSYM` when that aggregate is given, converted to `CURDEF` at its `CURRATE`,
/// see `OFXParser+Currency.swift`), `FITID` as the transaction id, `NAME` or
/// `PAYEE/NAME` as the counterparty, `MEMO` as the description, `CHECKNUM` and `REFNUM` as the
/// reference; `LEDGERBAL/BALAMT` is the balance after the statement, which gives a new
/// account its opening balance. The header's `CHARSET:1252` (or `ISO-8859-1`) is honoured;
/// text that is not valid UTF-8 is read as Windows-1252.
package struct OFXParser: Sendable {
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    let buildsRows: Bool

    package init(buildsRows: Bool = true) {
        self.buildsRows = buildsRows
    }

    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = OFXReader(source: source, names: Tag.names)
        var state = State(diagnostics: DiagnosticCollector(file: ""), buildsRows: buildsRows)
        return state.parse(
            into: &diagnostics, syntax: DiagnosticMessage.ofxSyntax,
            noStatement: .noStatement(format: "OFX", first: "<STMTRS> or <CCSTMTRS>")
        ) { (state) throws(XMLSyntaxError) in
            while let event = try reader.next() { state.handle(event, &reader, onRow) }
        }
    }
}

extension OFXParser {
    /// The tags the reader looks for, numbered first in the reader's name table.
    enum Tag: String, KnownNames {
        case stmtrs = "STMTRS"
        case ccstmtrs = "CCSTMTRS"
        case stmttrn = "STMTTRN"
        case payee = "PAYEE"
        case curdef = "CURDEF"
        case bankacctfrom = "BANKACCTFROM"
        case ccacctfrom = "CCACCTFROM"
        case bankid = "BANKID"
        case acctid = "ACCTID"
        case accttype = "ACCTTYPE"
        case ledgerbal = "LEDGERBAL"
        case balamt = "BALAMT"
        case dtasof = "DTASOF"
        case fi = "FI"
        case org = "ORG"
        case dtposted = "DTPOSTED"
        case trnamt = "TRNAMT"
        case fitid = "FITID"
        case name = "NAME"
        case memo = "MEMO"
        case checknum = "CHECKNUM"
        case refnum = "REFNUM"
        case trntype = "TRNTYPE"
        case currency = "CURRENCY"
        case origcurrency = "ORIGCURRENCY"
        case currate = "CURRATE"
        case cursym = "CURSYM"

        static let all = allCases

        /// Where a transaction keeps the tag's value, if it is one of a transaction's.
        var valueIndex: Int? {
            switch self {
            case .dtposted: 0
            case .trnamt: 1
            case .fitid: 2
            case .name: 3
            case .memo: 4
            case .checknum: 5
            case .refnum: 6
            case .trntype: 7
            case .currate: 8
            case .cursym: 9
            default: nil
            }
        }
    }

    /// The longest value kept for a row (a name, a memo, an id), in UTF-8 bytes: OFX allows
    /// 255 characters at most (`MEMO`), and a ledger keeps no megabytes from one booking.
    static let maximumKeptText = 8192

    struct Statement {
        let line: Int
        let column: Int
        let isCard: Bool
        var currency: PlacedText?
        var bankID: String?
        var accountID: PlacedText?
        var accountType: String?
        var account: Account? {
            didSet { idPrefix = account.map { TransactionIdentity.transactionIDPrefix($0.id) } }
        }
        /// What the keys of the account's transaction ids start with.
        var idPrefix: StableHasher?
        var accountChecked = false
        var ledgerBalance: PlacedText?
        /// The day of `LEDGERBAL/DTASOF`.
        var ledgerDay: Day?
        var total: Int64 = 0
        var isValid = true
    }

    /// Where a transaction's value stands in its `text`, and in the file.
    struct PlacedValue {
        let range: Range<Int>
        let line: Int
        let column: Int
    }

    /// The `STMTTRN` being read; one, reused, so that a transaction allocates nothing: its
    /// values are kept as UTF-8 one after another, and made strings only for a row built.
    struct Transaction {
        var line = 0
        var isOpen = false
        /// The value of each tag with a `valueIndex`.
        var values = [PlacedValue?](repeating: nil, count: 10)
        var text: [UInt8] = []
        /// `CURRENCY` or `ORIGCURRENCY`, whichever aggregate the transaction has.
        var currencyKind: Tag?
        /// The errors of the file before the transaction: one reported in it (a value given
        /// twice, one too long) keeps it from being a row.
        var errorsBefore = 0

        subscript(_ tag: Tag) -> PlacedValue? { values[tag.valueIndex!] }

        /// The bytes of a value.
        func bytes(_ value: PlacedValue) -> ArraySlice<UInt8> { text[value.range] }

        /// The tag's value as a string, `nil` when the tag is absent or empty.
        func string(_ tag: Tag) -> String? {
            self[tag].flatMap {
                $0.range.isEmpty ? nil : String(decoding: text[$0.range], as: UTF8.self)
            }
        }

        mutating func open(line: Int) {
            self.line = line
            isOpen = true
            for index in values.indices { values[index] = nil }
            text.removeAll(keepingCapacity: true)
            currencyKind = nil
        }

        /// Keeps the value of the reader's leaf as the tag's; `false` when the tag had one,
        /// which is kept.
        mutating func keep<S>(_ index: Int, from reader: OFXReader<S>, line: Int, column: Int)
            -> Bool
        {
            guard values[index] == nil else { return false }
            let start = text.count
            reader.appendValue(to: &text)
            values[index] = PlacedValue(range: start..<text.count, line: line, column: column)
            return true
        }
    }

    struct State: MarkupParserState {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        var path: [Tag?] = []
        var sawStatement = false
        var organization: String?
        var statement: Statement?
        var transaction = Transaction()
        /// The depth of a misplaced tag whose content is not read (its error said enough).
        var ignoredDepth: Int?
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
            case .start(let number):
                let tag = Tag.numbered(number)
                let parent = path.last ?? nil
                path.append(tag)
                switch tag {
                case .stmtrs, .ccstmtrs:
                    // A statement inside a statement would give its bookings to the outer one.
                    if let outer = statement {
                        misplaced(
                            tag!, in: "the <STMTRS> or <CCSTMTRS> of line \(outer.line)",
                            allowed: "its own <STMTTRNRS>", line: line, column: column)
                        break
                    }
                    sawStatement = true
                    statement = Statement(line: line, column: column, isCard: tag == .ccstmtrs)
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
            case .leaf(let number):
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
                                    tag.rawValue, in: (path.last ?? nil)?.rawValue ?? "STMTRS"),
                                line: line, column: column)
                            return
                        }
                        statement![keyPath: field] = value
                    }
                    switch (path.last, tag) {
                    case (_, .curdef): once(\.currency, value())
                    case (.bankacctfrom, .bankid): once(\.bankID, value().text)
                    case (.bankacctfrom, .acctid), (.ccacctfrom, .acctid):
                        once(\.accountID, value())
                    case (.bankacctfrom, .accttype): once(\.accountType, value().text)
                    case (.ledgerbal, .balamt): once(\.ledgerBalance, value())
                    case (.ledgerbal, .dtasof):
                        statement!.ledgerDay = Array(reader.value.utf8).withUnsafeBufferPointer {
                            Self.day($0)
                        }
                    default: break
                    }
                } else if path.last == .fi && tag == .org {
                    organization = value().text
                }
            case .end(let number):
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
                        tag.rawValue, length: reader.valueLength,
                        limit: OFXParser.maximumKeptText),
                    line: line, column: column)
                return
            }
            if !transaction.keep(index, from: reader, line: line, column: column) {
                let parent =
                    index < 8 ? "STMTTRN" : (transaction.currencyKind ?? .currency).rawValue
                report(.elementDuplicate(tag.rawValue, in: parent), line: line, column: column)
            }
        }

        /// Notes the transaction's `CURRENCY` or `ORIGCURRENCY`: it has one at most.
        mutating func noteCurrencyKind(_ tag: Tag, line: Int, column: Int) {
            guard transaction.currencyKind == nil else {
                report(
                    .elementDuplicate(tag.rawValue, in: "STMTTRN"), line: line, column: column)
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
                .elementMisplaced(tag.rawValue, in: container, allowed: allowed), line: line,
                column: column)
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

        /// An OFX amount: signed, with `.` or `,` as its decimal mark, its digits before it
        /// perhaps grouped in threes by spaces (`+1 006,60`).
        mutating func money(
            _ bytes: ArraySlice<UInt8>, line: Int, column: Int, _ name: String, currency: Currency
        ) -> Money? {
            let result = bytes.withUnsafeBytes { text in
                withUnsafeTemporaryAllocation(byteCount: text.count, alignment: 1) { plain in
                    Result { () throws(AmountError) in
                        let count = try OFXParser.plainAmount(text, into: plain)
                        return try Money(
                            parsing: UnsafeRawBufferPointer(rebasing: plain[..<count]),
                            currency: currency)
                    }
                }
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
        static func day(_ bytes: UnsafeBufferPointer<UInt8>) -> Day? {
            guard bytes.count >= 8, bytes[0..<8].allSatisfy({ $0 &- 48 < 10 }) else { return nil }
            let rest = bytes[8...]
            let time = rest.prefix { $0 != UInt8(ascii: "[") }
            guard time.allSatisfy({ $0 &- 48 < 10 || $0 == UInt8(ascii: ".") }),
                time.count == rest.count || rest.last == UInt8(ascii: "]")
            else { return nil }
            func number(_ range: Range<Int>) -> Int {
                bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) }
            }
            return try? Day(year: number(0..<4), month: number(4..<6), day: number(6..<8))
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
            guard let date = transaction.bytes(posted).withUnsafeBufferPointer(Self.day) else {
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
                    : transaction.bytes(fitid).withUnsafeBytes {
                        TransactionIdentity(prefix: statement!.idPrefix!, transactionID: $0).hash
                    }
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
            let name = transaction.string(.name)
            let memo = transaction.string(.memo)
            let built = StatementKit.Transaction(
                date: date, amount: amount,
                beneficiary: name ?? memo ?? transaction.string(.trntype) ?? "(no name)",
                description: memo,
                reference: transaction.string(.checknum) ?? transaction.string(.refnum),
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
            summary.statementLines.append(statement!.line)
            guard let account = account(), statement!.isValid,
                let balance = statement!.ledgerBalance,
                let closing = money(
                    Array(balance.text.utf8)[...], line: balance.line, column: balance.column,
                    "LEDGERBAL/BALAMT", currency: account.currency)
            else { return }
            summary.statedBalances.append(
                StatedBalance(
                    account: account, point: .closing, balance: closing, line: balance.line,
                    statementLine: statement!.line, statedDay: statement!.ledgerDay))
            // The balance after the statement tells the balance before it.
            if summary.openingBalances[account.id] == nil {
                summary.openingBalances[account.id] = Money(
                    minorUnits: closing.minorUnits &- statement!.total, currency: account.currency)
            }
        }
    }
}

/// The tags of an OFX document, SGML (leaf values without closing tags) or XML alike. Events
/// name tags by number (see `NameTable`), upper-cased; a leaf's value is the reader's until
/// the next event, made text only when a parser asks for it.
struct OFXReader<Source: ByteSource> {
    enum Event: Equatable {
        case start(Int)
        /// A tag with a value: `value`, located at `eventLine` and `eventColumn`.
        case leaf(Int)
        case end(Int)
    }

    private var cursor: ByteCursor<Source>
    private(set) var names: NameTable
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    private var open: [Int] = []
    /// The leaf just read, whose closing tag (XML) may follow.
    private var lastLeaf: Int?
    private var isWindows1252 = false
    private var sawHeader = false
    private var sawRoot = false
    /// A tag's name upper-cased, when it was not.
    private var nameBytes: [UInt8] = []
    /// Where the leaf's value stands in the cursor's buffer, until the next event.
    private var valueRange = 0..<0
    /// Whether the value is ASCII without entities.
    private var valueIsPlain = false
    /// The value when it is not a range of the buffer: CDATA (`<![CDATA[…]]>`), with any text
    /// around it, entities replaced in that text only.
    private var ownValue: [UInt8] = []
    private var valueIsOwned = false

    /// The longest tag, value or header.
    static var maximumTokenLength: Int { 1 << 20 }

    /// A reader numbering `known` (upper-case) names first, in their order.
    init(source: Source, names known: [String] = []) {
        cursor = ByteCursor(source: source)
        names = NameTable(known)
    }

    /// The length in bytes of the leaf just read, as written.
    var valueLength: Int { valueIsOwned ? ownValue.count : valueRange.count }

    /// The value of the leaf just read: its entities replaced, in the header's charset
    /// (Windows-1252 also when it is not valid UTF-8).
    var value: String {
        var text: [UInt8] = []
        appendValue(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the UTF-8 of the leaf just read to `text`: its entities replaced, in the
    /// header's charset (Windows-1252 also when it is not valid UTF-8).
    func appendValue(to text: inout [UInt8]) {
        if valueIsOwned {
            let isASCII = !ownValue.contains { $0 >= 0x80 }
            text +=
                isASCII || !(isWindows1252 || String(validating: ownValue, as: UTF8.self) == nil)
                ? ownValue : TextEncoding.windows1252.utf8(from: ownValue)
            return
        }
        if valueIsPlain {
            cursor.buffer.withUnsafeBufferPointer {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: $0[valueRange]))
            }
            return
        }
        let raw = cursor.buffer[valueRange]
        if !raw.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "&") }) {
            text += raw
            return
        }
        var bytes = Array(raw)
        if bytes.contains(UInt8(ascii: "&")) { bytes = Self.decodingEntities(bytes) }
        let isASCII = !bytes.contains { $0 >= 0x80 }
        text +=
            isASCII || !(isWindows1252 || String(validating: bytes, as: UTF8.self) == nil)
            ? bytes : TextEncoding.windows1252.utf8(from: bytes)
    }

    mutating func next() throws(XMLSyntaxError) -> Event? {
        if !sawHeader {
            sawHeader = true
            try readHeader()
        }
        while true {
            try skipSpace()
            guard try cursor.ensure(1) else {
                if let number = open.last {
                    throw error("the file ends inside <\(names.name(number))>")
                }
                if !sawRoot { throw error("the file holds no <OFX> element") }
                return nil
            }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            guard cursor.current == UInt8(ascii: "<") else {
                throw error("text outside any element")
            }
            guard try cursor.ensure(2) else { throw error("the file ends inside a tag") }
            switch simpleTag() {
            case .event(let event): return event
            case .closedLeaf: continue
            case .other: break
            }
            let second = cursor.buffer[cursor.position + 1]
            if second == UInt8(ascii: "?") {
                _ = try cursor.read(upTo: "?>", limit: Self.maximumTokenLength)
                continue
            }
            if second == UInt8(ascii: "!"), try cursor.starts(with: "<!--") {
                _ = try cursor.read(upTo: "-->", limit: Self.maximumTokenLength)
                continue
            }
            if second == UInt8(ascii: "!"), try cursor.starts(with: "<![CDATA[") {
                throw error("CDATA outside a value")
            }
            cursor.consume(1)
            let tag = try cursor.read(through: UInt8(ascii: ">"), limit: Self.maximumTokenLength)
            let (number, isClosing, isEmpty) = try name(tag)
            if !isClosing, !isEmpty, Self.isSelfClosing(tag) {
                // `<MEMO/>`: a tag without a value.
                lastLeaf = nil
                (valueRange, valueIsPlain, valueIsOwned) = (0..<0, true, false)
                return .leaf(number)
            }
            if isClosing {
                if number == lastLeaf {
                    lastLeaf = nil
                    continue
                }
                lastLeaf = nil
                guard let index = open.lastIndex(of: number) else {
                    throw error("</\(names.name(number))> closes nothing")
                }
                // SGML lets an aggregate close the ones inside it; OFX never needs it.
                guard index == open.count - 1 else {
                    throw error("</\(names.name(number))> closes <\(names.name(open.last!))>")
                }
                open.removeLast()
                return .end(number)
            }
            guard !isEmpty else { throw error("a tag without a name") }
            lastLeaf = nil
            try skipSpace()
            let valueStart = (cursor.line, cursor.column)
            try readValue()
            if valueRange.isEmpty, try cursor.starts(with: "<![CDATA[") { try readCDATAValue() }
            if !valueRange.isEmpty || valueIsOwned {
                // A value is located where it starts, after its tag and any white space.
                (eventLine, eventColumn) = valueStart
                lastLeaf = number
                return .leaf(number)
            }
            guard open.count < 64 else { throw error("nesting deeper than 64 levels") }
            guard !(open.isEmpty && sawRoot) else {
                throw error("a second root element <\(names.name(number))>")
            }
            sawRoot = true
            open.append(number)
            return .start(number)
        }
    }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: eventLine, column: eventColumn)
    }

    enum SimpleTag {
        case event(Event)
        /// The closing tag of the leaf just read.
        case closedLeaf
        /// Not a simple tag: read it the general way.
        case other
    }

    /// The commonest tags read at once: an upper-case ASCII name without spaces, within the
    /// buffer, closing the last leaf or the open aggregate, or opening one or a leaf whose
    /// value ends within the buffer.
    private mutating func simpleTag() -> SimpleTag {
        let position = cursor.position
        let buffer = cursor.buffer
        return buffer.withUnsafeBufferPointer { bytes -> SimpleTag in
            let isClosing = bytes[position + 1] == UInt8(ascii: "/")
            let start = position + (isClosing ? 2 : 1)
            if isClosing {
                // It closes the leaf just read, or the open aggregate.
                guard let number = lastLeaf ?? open.last,
                    let end = names.end(of: number, at: start, in: bytes)
                else { return .other }
                let length = end + 1 - position
                cursor.consume(length, columns: length)
                if lastLeaf != nil {
                    lastLeaf = nil
                    return .closedLeaf
                }
                open.removeLast()
                return .event(.end(number))
            }
            // Documents repeat their sequence of tags: the likely one is compared first.
            var likely: Int?
            let end: Int
            if let guess = names.likelyNext,
                let guessEnd = names.end(of: guess, at: start, in: bytes)
            {
                (likely, end) = (guess, guessEnd)
            } else {
                guard let nameEnd = Self.simpleName(bytes, from: start) else { return .other }
                end = nameEnd
            }
            let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let length = end + 1 - position
            // The value: up to the next `<`, all of it within the buffer; CDATA and comments
            // are read the general way.
            let (valueEnd, isPlain, hasLineBreak) = Self.scanValue(bytes, from: end + 1)
            guard valueEnd + 1 < bytes.count, bytes[valueEnd + 1] != UInt8(ascii: "!") else {
                return .other
            }
            let number: Int
            if let likely {
                names.noteLikelyNext(likely)
                number = likely
            } else {
                guard let found = names.number(of: name) else { return .other }
                number = found
            }
            var (from, to) = (end + 1, valueEnd)
            while from < to && XMLReader<Source>.isSpace(bytes[from]) { from += 1 }
            while to > from && XMLReader<Source>.isSpace(bytes[to - 1]) { to -= 1 }
            if from == to {
                guard open.count < 64, !(open.isEmpty && sawRoot) else { return .other }
                cursor.consume(length, columns: length)
                lastLeaf = nil
                sawRoot = true
                open.append(number)
                return .event(.start(number))
            }
            cursor.consume(length, columns: length)
            // A value is located where it starts, after its tag and any white space.
            if from > end + 1 { cursor.consume(from - end - 1) }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            // OFX 2's closing tag right after the value is read with it.
            var next = valueEnd
            if valueEnd == to, valueEnd + 1 < bytes.count,
                bytes[valueEnd + 1] == UInt8(ascii: "/"),
                let closeEnd = names.end(of: number, at: valueEnd + 2, in: bytes)
            {
                next = closeEnd + 1
                lastLeaf = nil
            } else {
                lastLeaf = number
            }
            if isPlain && !hasLineBreak {
                cursor.consume(to - from, columns: to - from)
                // The closing tag read with it is ASCII on one line; white space after a
                // value without one may hold a line break.
                if lastLeaf == nil {
                    cursor.consume(next - to, columns: next - to)
                } else {
                    cursor.consume(next - to)
                }
            } else {
                cursor.consume(next - from)
            }
            (valueRange, valueIsPlain, valueIsOwned) = (from..<to, isPlain, false)
            return .event(.leaf(number))
        }
    }

    /// Where a value from `start` ends: at the next `<`, or at the end of `bytes` when none
    /// follows; whether it is plain (no byte of 0x80 or more, no `&`) and whether it holds a
    /// line feed. Eight bytes at a time: in a word, each byte that is `<` (or `&`, or a line
    /// feed) gets its top bit set by `(x - 0x01…) & ~x & 0x80…` over the word XORed with that
    /// byte repeated, exactly for every byte up to the first such one (a borrow can only
    /// mark bytes above it), which is all that is looked at: the bytes before the first `<`.
    static func scanValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
        end: Int, isPlain: Bool, hasLineBreak: Bool
    ) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops = ones &* 0x80
        func marks(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let matched = word ^ (ones &* UInt64(byte))
            return (matched &- ones) & ~matched & tops
        }
        var index = start
        var special: UInt64 = 0
        var lineBreaks: UInt64 = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            let word = UInt64(
                littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let opening = marks(word, UInt8(ascii: "<"))
            // The bits below the first `<`'s mark: its own byte's top bit is not among them.
            let before = opening == 0 ? ~0 : (opening & (0 &- opening)) &- 1
            special |= (word & tops | marks(word, UInt8(ascii: "&"))) & before
            lineBreaks |= marks(word, 0x0A) & before
            if opening != 0 {
                return (index + opening.trailingZeroBitCount / 8, special == 0, lineBreaks != 0)
            }
            index += 8
        }
        var (isPlain, hasLineBreak) = (special == 0, lineBreaks != 0)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if byte >= 0x80 || byte == UInt8(ascii: "&") { isPlain = false }
            if byte == 0x0A { hasLineBreak = true }
            index += 1
        }
        return (index, isPlain, hasLineBreak)
    }

    /// The end of a simple name from `start`: an upper-case ASCII letter, then upper-case
    /// ASCII without spaces or `/` up to a `>` within the buffer; `nil` for any other (so
    /// that `<!--…-->`, `<![CDATA[…]]>`, `<?…?>` and `<MEMO/>` are read the general way).
    private static func simpleName(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] &- 65 < 26 else { return nil }
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: ">") { return end > start ? end : nil }
            if byte &- 97 < 26 || byte >= 0x80 || byte == UInt8(ascii: "<") || byte <= 0x20
                || byte == UInt8(ascii: "/")
            {
                return nil
            }
            end += 1
        }
        return nil
    }

    /// Whether a tag (without its `<` and `>`) ends with `/`, as `<MEMO/>` or `<MEMO />`.
    private static func isSelfClosing(_ tag: ArraySlice<UInt8>) -> Bool {
        var end = tag.endIndex
        while end > tag.startIndex && XMLReader<Source>.isSpace(tag[end - 1]) { end -= 1 }
        return end > tag.startIndex && tag[end - 1] == UInt8(ascii: "/")
    }

    /// A tag's name, upper-cased, numbered; whether it is a closing tag, and whether the
    /// name is empty.
    private mutating func name(_ tag: ArraySlice<UInt8>) throws(XMLSyntaxError) -> (Int, Bool, Bool)
    {
        var start = tag.startIndex
        while start < tag.endIndex && XMLReader<Source>.isSpace(tag[start]) { start += 1 }
        let isClosing = start < tag.endIndex && tag[start] == UInt8(ascii: "/")
        if isClosing { start += 1 }
        var end = start
        var isUpperCase = true
        while end < tag.endIndex && !XMLReader<Source>.isSpace(tag[end])
            && tag[end] != UInt8(ascii: "/")
        {
            if tag[end] &- 97 < 26 { isUpperCase = false }
            end += 1
        }
        var number: Int?
        if isUpperCase {
            number = tag[start..<end].withUnsafeBufferPointer { names.number(of: $0) }
        } else {
            var upper = nameBytes
            upper.removeAll(keepingCapacity: true)
            for byte in tag[start..<end] { upper.append(byte &- 97 < 26 ? byte - 32 : byte) }
            number = upper.withUnsafeBufferPointer { names.number(of: $0) }
            nameBytes = upper
        }
        guard let number else {
            throw error("more than \(NameTable.maximumCount) different tag names")
        }
        return (number, isClosing, start == end)
    }

    private mutating func skipSpace() throws(XMLSyntaxError) {
        if try cursor.ensure(1), !XMLReader<Source>.isSpace(cursor.current) { return }
        while try cursor.ensure(1) {
            var end = cursor.position
            let buffer = cursor.buffer
            while end < buffer.count && XMLReader<Source>.isSpace(buffer[end]) { end += 1 }
            let count = end - cursor.position
            cursor.consume(count)
            if end < buffer.count { return }
        }
    }

    /// The OFX 1 header, `KEY:VALUE` lines before the first `<`; its charset.
    private mutating func readHeader() throws(XMLSyntaxError) {
        let header = try cursor.take(until: UInt8(ascii: "<"), limit: 4096)
        let text = String(decoding: header, as: UTF8.self).uppercased()
        isWindows1252 =
            text.contains("CHARSET:1252") || text.contains("CHARSET:ISO-8859-1")
            || text.contains("CHARSET:8859-1")
    }

    /// Finds a leaf's value, the text up to the next `<` without surrounding white space,
    /// in the cursor's buffer.
    private mutating func readValue() throws(XMLSyntaxError) {
        let slice = try cursor.take(until: UInt8(ascii: "<"), limit: Self.maximumTokenLength)
        var (start, end) = (slice.startIndex, slice.endIndex)
        while start < end && XMLReader<Source>.isSpace(slice[start]) { start += 1 }
        while end > start && XMLReader<Source>.isSpace(slice[end - 1]) { end -= 1 }
        (valueRange, valueIsPlain, valueIsOwned) = (start..<end, false, false)
    }

    /// Reads a value given as CDATA, `<![CDATA[…]]>`, with any text after it up to the next
    /// tag (and further CDATA), as one value without surrounding white space.
    private mutating func readCDATAValue() throws(XMLSyntaxError) {
        ownValue.removeAll(keepingCapacity: true)
        while try cursor.starts(with: "<![CDATA[") {
            cursor.consume(9)
            ownValue += try cursor.read(upTo: "]]>", limit: Self.maximumTokenLength)
            let text = try cursor.take(until: UInt8(ascii: "<"), limit: Self.maximumTokenLength)
            ownValue +=
                text.contains(UInt8(ascii: "&")) ? Self.decodingEntities(Array(text)) : Array(text)
            guard ownValue.count <= Self.maximumTokenLength else {
                throw cursor.tooLong(
                    "a value longer than \(Self.maximumTokenLength.groupedText) bytes")
            }
        }
        while let last = ownValue.last, XMLReader<Source>.isSpace(last) { ownValue.removeLast() }
        var leading = 0
        while leading < ownValue.count, XMLReader<Source>.isSpace(ownValue[leading]) {
            leading += 1
        }
        ownValue.removeFirst(leading)
        valueIsOwned = true
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

extension OFXParser: StatementReader {
    static let formatName = "OFX/QFX"
    static let readsUTF16 = true

    /// The OFX 1 header `OFXHEADER:100`, OFX 2's `<?OFX OFXHEADER="200"?>`, or `<OFX>`, in
    /// any case, within the first kilobyte.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        let upper = head.prefix(1024).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }
        return upper.firstRange(of: Array("OFXHEADER".utf8)) != nil
            || upper.firstRange(of: Array("<OFX>".utf8)) != nil
    }
}
